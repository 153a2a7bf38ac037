import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import { DEFAULT_LOG_PAGE_BYTES, logDownloadName, safeFileName, type LogFileList, type LogFileRef, type LogLine, type LogPage, type LogSearchResult } from '../../../engine/contracts/logs';
import { askNotificationPermissionOnce } from '../../api/shell-client';
import { notifyWhenDone } from '../../app/notifyWhenDone';
import { appShell } from '../../app/shell';
import { ErrorBanner } from '../../components/ErrorBanner';
import { toErrorInfo } from '../../components/errors';
import { formatBytes, formatTimestamp } from '../../components/format';
import { testIds } from '../../testIds';
import { useLogsApi } from './api';
import { downloadText } from './downloadText';

/** How often follow asks for what was written since. */
const FOLLOW_INTERVAL_MS = 2000;
/** Lines kept on screen while following: older ones leave, as in a terminal's scrollback. */
const MAX_SHOWN_LINES = 5000;

type Shown = { kind: 'page'; page: LogPage; lines: LogLine[] } | { kind: 'search'; result: LogSearchResult };

function fileKey(file: LogFileRef): string {
  return file.kind === 'file' ? `file:${file.name}` : file.kind;
}

function fileOfKey(key: string): LogFileRef {
  if (key === 'log' || key === 'stdout') return { kind: key };
  return { kind: 'file', name: key.slice('file:'.length) };
}

/**
 * A process's log: its files, a page of one (start, older, newer, the end), a search by text and by task, follow and
 * wrap, the shown lines downloaded, and the whole file saved (streamed by the engine, never through the page). Pages
 * are read by the engine a few hundred KiB at a time; lines are text, never markup, their control characters already
 * made visible by the engine.
 */
export function LogView({ clusterId, processId, task }: { clusterId: string; processId: string; task: string | null }): ReactNode {
  const api = useLogsApi();
  const [files, setFiles] = useState<LogFileList | null>(null);
  const [file, setFile] = useState<LogFileRef>({ kind: 'log' });
  const [shown, setShown] = useState<Shown | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [loading, setLoading] = useState(false);
  const [wrap, setWrap] = useState(false);
  const [follow, setFollow] = useState(false);
  const [text, setText] = useState('');
  const [taskFilter, setTaskFilter] = useState(task ?? '');
  const [time, setTime] = useState('');
  // The newest request wins: an older answer arriving late is dropped.
  const request = useRef(0);

  const run = useCallback(async <T,>(call: () => Promise<T>, show: (value: T) => void): Promise<void> => {
    const id = ++request.current;
    setLoading(true);
    try {
      const value = await call();
      if (id !== request.current) return;
      setError(null);
      show(value);
    } catch (e) {
      if (id === request.current) setError(toErrorInfo(e));
    } finally {
      if (id === request.current) setLoading(false);
    }
  }, []);

  const readAt = useCallback(
    (target: LogFileRef, offset: number | null) => {
      // Another page: following (which appends to the shown one) stops.
      setFollow(false);
      void run(() => api.read(clusterId, processId, { file: target, offset, length: DEFAULT_LOG_PAGE_BYTES }), (page) => setShown({ kind: 'page', page, lines: page.lines }));
    },
    [api, clusterId, processId, run],
  );

  const search = useCallback(
    (target: LogFileRef, searchText: string, searchTask: string) => {
      void run(() => api.search(clusterId, processId, { file: target, text: searchText || null, task: searchTask || null }), (result) => setShown({ kind: 'search', result }));
    },
    [api, clusterId, processId, run],
  );

  useEffect(() => {
    void api.list(clusterId, processId).then(setFiles, (e: unknown) => setError(toErrorInfo(e)));
  }, [api, clusterId, processId]);

  // Opened for a task: its lines; else the end of the log.
  useEffect(() => {
    if (task) search({ kind: 'log' }, '', task);
    else readAt({ kind: 'log' }, null);
  }, [task, search, readAt]);

  // Follow: from where the shown page ended, every few seconds, appending.
  const followFrom = shown?.kind === 'page' ? shown.page.nextOffset : null;
  useEffect(() => {
    if (!follow || followFrom === null) return;
    let offset = followFrom;
    let stopped = false;
    const timer = setInterval(() => {
      void api.read(clusterId, processId, { file, offset, length: DEFAULT_LOG_PAGE_BYTES }).then(
        (page) => {
          if (stopped || page.lines.length === 0) return;
          offset = page.nextOffset;
          setShown((s) => (s?.kind === 'page' ? { kind: 'page', page: { ...page, offset: s.page.offset }, lines: [...s.lines, ...page.lines].slice(-MAX_SHOWN_LINES) } : s));
        },
        (e: unknown) => !stopped && setError(toErrorInfo(e)),
      );
    }, FOLLOW_INTERVAL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
    // Restarted only when following starts or the file changes, not on each appended page: `followFrom` is read once.
  }, [follow, file, api, clusterId, processId]);

  const chooseFile = (key: string) => {
    const next = fileOfKey(key);
    setFile(next);
    setFollow(false);
    readAt(next, null);
  };
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setFollow(false);
    if (text.trim() === '' && taskFilter.trim() === '') readAt(file, null);
    else search(file, text, taskFilter.trim());
  };
  // Jump to a time: the first line stamped with it (log4j's `yyyy-MM-dd HH:mm:ss` prefix, as much of it as given).
  const onJump = (event: FormEvent) => {
    event.preventDefault();
    const stamp = time.trim().replace('T', ' ');
    if (stamp === '') return;
    setFollow(false);
    void run(
      () => api.search(clusterId, processId, { file, text: stamp, task: null, maxMatches: 1 }),
      (result) => {
        const hit = result.matches.find((m) => m.text.startsWith(stamp));
        if (hit) readAt(file, hit.offset);
        else setShown({ kind: 'search', result: { ...result, matches: [] } });
      },
    );
  };
  const lines = shown === null ? [] : shown.kind === 'page' ? shown.lines : shown.result.matches;
  const onDownload = () => {
    const name = file.kind === 'file' ? file.name : file.kind;
    const range = lines.length > 0 ? `-lines-${lines[0].number}-${lines[lines.length - 1].number}` : '';
    downloadText(safeFileName(`${processId}-${name}${range}.txt`), lines.map((l) => `${l.text}\n`).join(''));
  };
  // The whole file, streamed by the engine to where it is saved (a save dialog, or the browser's download): never read into the page.
  const onDownloadFile = () => {
    const suggestedName = logDownloadName(processId, file);
    askNotificationPermissionOnce();
    notifyWhenDone(appShell().saveLogFile({ clusterId, processId, file, suggestedName }), `Saving ${suggestedName}`, {
      describe: (saved) => (saved.saved ? `Written to ${saved.location}.` : 'Not saved: the save was cancelled.'),
    }).catch(() => undefined); // already reported by notifyWhenDone
  };
  const page = shown?.kind === 'page' ? shown.page : null;

  return (
    <div className="log-view" data-testid={testIds.logs.logView}>
      <div className="table-toolbar log-view__toolbar">
        <label className="small">
          File{' '}
          <select value={fileKey(file)} onChange={(event) => chooseFile(event.target.value)} data-testid={testIds.logs.fileSelect}>
            <option value="log">Current log</option>
            <option value="stdout">Stdout</option>
            {(files?.files ?? []).map((f) => (
              <option key={f.name} value={`file:${f.name}`}>
                {f.name} ({formatBytes(f.size)}
                {f.modifiedAt !== null ? `, ${formatTimestamp(f.modifiedAt)}` : ''})
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button button--small" disabled={loading} onClick={() => readAt(file, 0)}>Start</button>
        <button type="button" className="button button--small" disabled={loading || !page || page.offset === 0} onClick={() => page && readAt(file, Math.max(0, page.offset - DEFAULT_LOG_PAGE_BYTES))}>Older</button>
        <button type="button" className="button button--small" disabled={loading || !page || page.endOfFile} onClick={() => page && readAt(file, page.nextOffset)}>Newer</button>
        <button type="button" className="button button--small" disabled={loading} onClick={() => readAt(file, null)}>End</button>
        <label className="small">
          <input type="checkbox" checked={follow} disabled={!page} onChange={(event) => setFollow(event.target.checked)} data-testid={testIds.logs.follow} /> Follow
        </label>
        <label className="small">
          <input type="checkbox" checked={wrap} onChange={(event) => setWrap(event.target.checked)} data-testid={testIds.logs.wrap} /> Wrap
        </label>
        <button type="button" className="button button--small" disabled={lines.length === 0} onClick={onDownload} data-testid={testIds.logs.download}>Download shown lines</button>
        <button type="button" className="button button--small" onClick={onDownloadFile} data-testid={testIds.logs.downloadFile} title="The whole file, streamed from the cluster to disk">Download whole file</button>
      </div>
      <form className="table-toolbar" onSubmit={onSearch}>
        <input type="search" className="search" placeholder="Search the file (case-insensitive)" aria-label="Search the log" value={text} onChange={(event) => setText(event.target.value)} data-testid={testIds.logs.search} />
        <input type="search" className="search" placeholder="Task, e.g. tenant-cost (13/32)#0" aria-label="Lines of a task" value={taskFilter} onChange={(event) => setTaskFilter(event.target.value)} data-testid={testIds.logs.taskFilter} />
        <button type="submit" className="button button--small" disabled={loading}>Search</button>
      </form>
      <form className="table-toolbar" onSubmit={onJump}>
        <input type="text" className="search" placeholder="Jump to a time, e.g. 2026-12-02 16:21" aria-label="Jump to a time" value={time} onChange={(event) => setTime(event.target.value)} data-testid={testIds.logs.jumpTime} />
        <button type="submit" className="button button--small" disabled={loading}>Jump</button>
      </form>
      {error ? <ErrorBanner error={error} context="Reading the log failed" /> : null}
      <p className="muted small" role="status" data-testid={testIds.logs.status}>
        {loading ? 'Reading…' : describe(shown)}
      </p>
      <ol className={`log-lines${wrap ? ' log-lines--wrap' : ''}`} data-testid={testIds.logs.lines}>
        {lines.map((line) => (
          <li key={line.offset} className="log-line" data-line={line.number}>
            <span className="log-line__number" aria-hidden="true">{line.number}</span>
            <span className="log-line__text">{line.text}</span>
            {shown?.kind === 'search' ? (
              <button type="button" className="button button--tiny log-line__jump" onClick={() => readAt(file, line.offset)} aria-label={`Show line ${line.number} in the file`}>
                In file
              </button>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}

function describe(shown: Shown | null): string {
  if (shown === null) return '';
  if (shown.kind === 'search') {
    const r = shown.result;
    const n = `${r.matches.length} matching line${r.matches.length === 1 ? '' : 's'}`;
    return r.complete ? `${n} of ${r.scannedLines}.` : `${n} in the first ${formatBytes(r.scannedBytes)} (${r.scannedLines} lines): the search stopped there.`;
  }
  const p = shown.page;
  const size = p.fileBytes === null ? 'size not known' : formatBytes(p.fileBytes);
  if (shown.lines.length === 0) return `No lines here (file ${size}).`;
  const cut = p.cutLine ? ' A line longer than the page is shown cut.' : '';
  return `Lines ${shown.lines[0].number}–${shown.lines[shown.lines.length - 1].number} of a file of ${size}${p.endOfFile ? ', to its end' : ''}.${cut}`;
}
