/**
 * The one registry of `data-testid` values, shared by components and e2e tests.
 * Prefer roles and labels in tests; a test id is for what has no accessible name of its own.
 */
export const testIds = {
  app: {
    root: 'app-root',
    main: 'app-main',
    crashed: 'panel-crashed',
  },
  clusters: {
    sidebar: 'cluster-sidebar',
    list: 'cluster-list',
    item: (clusterId: string) => `cluster-item-${clusterId}`,
    secretMissing: 'cluster-secret-missing',
    confirmRemove: 'cluster-confirm-remove',
    form: 'cluster-form',
    formError: 'cluster-form-error',
    formSuccess: 'cluster-form-success',
    detectedVersion: 'cluster-detected-version',
    memoryNotice: 'cluster-memory-notice',
  },
  refresh: {
    control: 'refresh-control',
    updated: 'refresh-updated',
    stale: 'refresh-stale',
  },
  overview: {
    panel: 'overview-panel',
    flinkVersion: 'overview-flink-version',
    taskManagers: 'overview-task-managers',
    slots: 'overview-slots',
    jobs: 'overview-jobs',
    jobCount: (state: string) => `overview-jobs-${state}`,
  },
  jobs: {
    panel: 'jobs-panel',
    table: 'jobs-table',
    row: (jobId: string) => `job-row-${jobId}`,
    state: 'job-state',
    duration: 'job-duration',
    empty: 'jobs-empty',
  },
  jobGraph: {
    page: 'job-page',
    header: 'job-header',
    name: 'job-name',
    state: 'job-state-badge',
    duration: 'job-header-duration',
    requestCount: 'job-request-count',
    canvas: 'job-graph-canvas',
    layouting: 'job-graph-layouting',
    legend: 'job-graph-legend',
    vertex: (vertexId: string) => `vertex-${vertexId}`,
    vertexName: 'vertex-name',
    vertexParallelism: 'vertex-parallelism',
    vertexStatus: 'vertex-status',
    vertexMetricsUnavailable: 'vertex-metrics-unavailable',
    metricsSampling: 'job-metrics-sampling',
    metricsUnavailableCount: 'job-metrics-unavailable-count',
    notFound: 'job-not-found',
  },
  subtasks: {
    panel: 'subtasks-panel',
    table: 'subtasks-table',
    row: (index: number) => `subtask-row-${index}`,
  },
  taskManagers: {
    panel: 'taskmanagers-panel',
    table: 'taskmanagers-table',
    row: (taskManagerId: string) => `taskmanager-row-${taskManagerId}`,
    confirmKill: 'taskmanager-confirm-kill',
    outcome: 'taskmanager-kill-outcome',
  },
  errors: {
    banner: 'error-banner',
    endpoint: 'error-endpoint',
  },
  toasts: {
    region: 'toasts',
    toast: 'toast',
  },
  shortcuts: {
    sheet: 'shortcuts-sheet',
  },
  theme: {
    picker: 'theme-picker',
  },
  deepLink: {
    unresolved: 'deep-link-unresolved',
  },
  exports: {
    subtaskMetrics: 'export-subtask-metrics',
  },
} as const;
