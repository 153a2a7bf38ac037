import { useCallback, useEffect, useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import type { JobGraph } from '../../../engine/contracts/jobs';
import type { KafkaSettingsView, KafkaSourceInfo } from '../../../engine/contracts/kafka';
import type { ClusterRefresh } from '../../app/refreshSettings';
import { ErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { Panel } from '../../components/Panel';
import { testIds } from '../../testIds';
import { ConsumerLagView } from './ConsumerLagView';
import { HotKeysView } from './HotKeysView';
import { KafkaSettingsForm } from './KafkaSettingsForm';
import { defaultKeyedVertex, keyedVertices } from './keyedVertices';
import { useKafkaApi } from './api';

type Settings = { state: 'loading' } | { state: 'failed'; error: ErrorInfo } | { state: 'ready'; view: KafkaSettingsView | null };

/**
 * The job's Kafka: the cluster's Kafka connection (asked for once, kept per cluster), the consumer lag of the job's
 * group with its trend, and hot keys sampled from its topic. Group and topic come from what Flink exposes (the source's
 * metrics, the job's configuration); the user names them where it does not.
 */
export function KafkaPanel({ clusterId, jobId, graph, refresh, onAdvise }: { clusterId: string; jobId: string; graph: JobGraph | null; refresh: ClusterRefresh; /** A hot key's way to the Advice panel, with its rate and the keyed vertex it was placed on. */ onAdvise?: (key: string, measured: { rate: number; vertexId: string | null }) => void }): ReactNode {
  const kafkaApi = useKafkaApi();
  const [settings, setSettings] = useState<Settings>({ state: 'loading' });
  const [editing, setEditing] = useState(false);
  const [source, setSource] = useState<KafkaSourceInfo | null>(null);
  const [target, setTarget] = useState<{ groupId: string; topic: string } | null>(null);

  const load = useCallback(() => {
    kafkaApi.settings(clusterId).then(
      (view) => setSettings({ state: 'ready', view }),
      (error: unknown) => setSettings({ state: 'failed', error: toErrorInfo(error) }),
    );
  }, [kafkaApi, clusterId]);
  useEffect(load, [load]);

  const connected = settings.state === 'ready' && settings.view !== null;
  // Asked only once Kafka is connected: a cluster without Kafka costs the JobManager no extra request.
  useEffect(() => {
    let live = true;
    setSource(null);
    setTarget(null);
    if (!connected) return;
    kafkaApi.source(clusterId, jobId).then(
      (info) => {
        if (!live) return;
        setSource(info);
        if (info.groupId) setTarget({ groupId: info.groupId, topic: info.topics[0] ?? '' });
      },
      () => live && setSource({ topics: [], groupId: null, pendingRecords: null, sourceVertexId: null, checkpointIntervalMs: null }),
    );
    return () => {
      live = false;
    };
  }, [kafkaApi, clusterId, jobId, connected]);

  const vertices = useMemo(() => (graph ? keyedVertices(graph) : []), [graph]);
  const view = settings.state === 'ready' ? settings.view : null;
  const actions =
    view && !editing ? (
      <span className="kafka-summary" data-testid={testIds.kafka.settingsSummary}>
        <code className="mono small">{view.bootstrapServers.join(',')}</code>
        {view.tls ? ' · TLS' : ''}
        {view.sasl.mechanism !== 'none' ? ` · SASL ${view.sasl.mechanism.toUpperCase()}` : ''}
        <button type="button" className="button button--tiny button--ghost" onClick={() => setEditing(true)}>
          Edit
        </button>
      </span>
    ) : null;

  return (
    <Panel title="Kafka" testId={testIds.kafka.panel} className="kafka-panel" actions={actions}>
      {settings.state === 'loading' ? <p className="muted">Loading…</p> : null}
      {settings.state === 'failed' ? <ErrorBanner error={settings.error} context="Reading the Kafka settings failed" /> : null}
      {settings.state === 'ready' && (!view || editing) ? (
        <>
          {!view ? <p className="hint">Connect this cluster&apos;s Kafka to see the job&apos;s consumer lag and its hot keys. Nothing is written to Kafka: offsets are only read.</p> : null}
          <KafkaSettingsForm
            clusterId={clusterId}
            saved={view}
            onSaved={(saved) => {
              setSettings({ state: 'ready', view: saved });
              setEditing(false);
            }}
            onCancel={view ? () => setEditing(false) : undefined}
          />
        </>
      ) : null}
      {view && !editing ? (
        <>
          <TargetForm source={source} target={target} onChange={setTarget} />
          {target && target.groupId !== '' ? (
            <ConsumerLagView
              key={`${target.groupId}/${target.topic}`}
              clusterId={clusterId}
              jobId={jobId}
              groupId={target.groupId}
              topics={target.topic !== '' ? [target.topic] : []}
              checkpointIntervalMs={source?.checkpointIntervalMs ?? null}
              refresh={refresh}
            />
          ) : null}
          <HotKeysView
            key={target?.topic ?? source?.topics[0] ?? ''}
            clusterId={clusterId}
            defaultTopic={target?.topic || source?.topics[0] || ''}
            vertices={vertices}
            defaultVertex={graph ? defaultKeyedVertex(graph, vertices) : null}
            onAdvise={onAdvise}
          />
        </>
      ) : null}
    </Panel>
  );
}

/** Which group and topic: found from Flink where it says, typed by the user where it does not. */
function TargetForm({ source, target, onChange }: { source: KafkaSourceInfo | null; target: { groupId: string; topic: string } | null; onChange: (t: { groupId: string; topic: string }) => void }): ReactNode {
  const id = useId();
  const [groupId, setGroupId] = useState(target?.groupId ?? '');
  const [topic, setTopic] = useState(target?.topic ?? source?.topics[0] ?? '');
  useEffect(() => {
    if (target) {
      setGroupId(target.groupId);
      setTopic(target.topic);
    } else if (source?.topics[0]) setTopic(source.topics[0]);
  }, [source, target]);
  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    onChange({ groupId: groupId.trim(), topic: topic.trim() });
  };
  const found = source ? [source.topics.length > 0 ? `topic ${source.topics.join(', ')} (from the source's metrics)` : '', source.groupId ? `group ${source.groupId} (from the job's configuration)` : ''].filter(Boolean) : [];
  return (
    <form className="kafka-target" onSubmit={onSubmit} aria-label="Consumer group">
      <div className="field">
        <label htmlFor={`${id}-group`}>Consumer group</label>
        <input id={`${id}-group`} value={groupId} onChange={(e) => setGroupId(e.target.value)} placeholder="the source's group.id" />
      </div>
      <div className="field">
        <label htmlFor={`${id}-topic`}>Topic (optional)</label>
        <input id={`${id}-topic`} value={topic} onChange={(e) => setTopic(e.target.value)} placeholder="every topic the group committed" />
      </div>
      <button type="submit" className="button">
        Show lag
      </button>
      <span className="muted small">{source === null ? 'Looking for the job\'s Kafka source…' : found.length > 0 ? `Found ${found.join(' and ')}.` : 'Flink does not say which group this job uses: name it.'}</span>
    </form>
  );
}
