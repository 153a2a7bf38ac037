import { checkpointsTab } from '../checkpoints/checkpointsTab';
import { skewTab } from '../diagnosis/skewTab';
import { exceptionsTab } from '../exceptions/exceptionsTab';
import { kafkaTab } from '../kafka/kafkaTab';
import { metricsHistoryTab } from '../metrics-history/metricsHistoryTab';
import { operationsTab } from '../operations/operationsTab';
import { rescalesTab } from '../rescales/rescalesTab';
import { inspectTab } from '../inspect/inspectTab';
import { stateTab } from '../state/stateTab';
import { graphTab } from './graphTab';
import type { JobTab } from './JobTabs';

/** The job page's tabs, in order: one entry per feature folder (each exports its tab). */
export const JOB_TABS: readonly JobTab[] = [graphTab, skewTab, metricsHistoryTab, checkpointsTab, stateTab, operationsTab, rescalesTab, exceptionsTab, kafkaTab, inspectTab];
