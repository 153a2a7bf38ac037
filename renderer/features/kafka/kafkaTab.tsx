import type { JobTab } from '../job-graph/JobTabs';
import { KafkaPanel } from './KafkaPanel';

export const kafkaTab: JobTab = {
  id: 'kafka',
  label: 'Kafka',
  Component: ({ clusterId, jobId, graph, refresh, onOpenAdvice }) => <KafkaPanel clusterId={clusterId} jobId={jobId} graph={graph} refresh={refresh} onAdvise={onOpenAdvice} />,
};
