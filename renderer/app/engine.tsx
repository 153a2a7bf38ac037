import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { AppInfo, EngineApi, ErrorInfo } from '../../engine/contracts/engine-api';
import { toErrorInfo } from '../components/errors';

interface EngineContextValue {
  api: EngineApi;
  appInfo: AppInfo | null;
  appInfoError: ErrorInfo | null;
}

const EngineContext = createContext<EngineContextValue | null>(null);

/** Provides the typed engine API and the app info (mode, secret storage) to every feature. */
export function EngineProvider({ api, children }: { api: EngineApi; children: ReactNode }): ReactNode {
  const [appInfo, setAppInfo] = useState<AppInfo | null>(null);
  const [appInfoError, setAppInfoError] = useState<ErrorInfo | null>(null);
  useEffect(() => {
    let live = true;
    api.getAppInfo().then(
      (info) => live && setAppInfo(info),
      (error: unknown) => live && setAppInfoError(toErrorInfo(error)),
    );
    return () => {
      live = false;
    };
  }, [api]);
  return <EngineContext.Provider value={{ api, appInfo, appInfoError }}>{children}</EngineContext.Provider>;
}

export function useEngine(): EngineContextValue {
  const value = useContext(EngineContext);
  if (!value) throw new Error('useEngine() outside <EngineProvider>.');
  return value;
}
