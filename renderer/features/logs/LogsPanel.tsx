import { useState, type ReactNode } from 'react';
import { Panel } from '../../components/Panel';
import { testIds } from '../../testIds';
import { LogView } from './LogView';
import { ThreadDumpView } from './ThreadDumpView';
import './logs.css';

export type LogsTab = 'log' | 'threads';

/**
 * The log and the thread dump of the JobManager (`processId` "jobmanager") or a TaskManager, as the Web UI shows them.
 * Opened for a task (`tenant-cost (13/32)#0`): the log filtered to its lines, its thread opened in the dump.
 */
export function LogsPanel({
  clusterId,
  processId,
  task = null,
  initialTab = 'log',
  onClose,
}: {
  clusterId: string;
  processId: string;
  task?: string | null;
  initialTab?: LogsTab;
  onClose: () => void;
}): ReactNode {
  const [tab, setTab] = useState<LogsTab>(initialTab);
  const who = processId === 'jobmanager' ? 'JobManager' : <>TaskManager <code className="mono small">{processId}</code></>;
  return (
    <Panel
      title={<>{who}{task ? <> · <span className="mono small">{task}</span></> : null}</>}
      testId={testIds.logs.panel}
      className="logs-panel"
      actions={
        <>
          <div className="logs-panel__tabs" role="tablist" aria-label="Logs or thread dump">
            <button type="button" role="tab" aria-selected={tab === 'log'} className={`button button--small${tab === 'log' ? ' is-active' : ''}`} onClick={() => setTab('log')} data-testid={testIds.logs.tab('log')}>
              Log
            </button>
            <button type="button" role="tab" aria-selected={tab === 'threads'} className={`button button--small${tab === 'threads' ? ' is-active' : ''}`} onClick={() => setTab('threads')} data-testid={testIds.logs.tab('threads')}>
              Thread dump
            </button>
          </div>
          <button type="button" className="button button--small" onClick={onClose} aria-label="Close logs">
            Close
          </button>
        </>
      }
    >
      {tab === 'log' ? <LogView clusterId={clusterId} processId={processId} task={task} /> : <ThreadDumpView clusterId={clusterId} processId={processId} task={task} />}
    </Panel>
  );
}
