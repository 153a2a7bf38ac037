import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { AppInfo } from '../../engine/contracts/app';
import type { EngineApi, EngineService } from '../../engine/contracts/engine-api';
import type { ErrorInfo } from '../../engine/contracts/errors';
import { toErrorInfo } from '../components/errors';

interface EngineContextValue {
  api: EngineApi;
  appInfo: AppInfo | null;
  appInfoError: ErrorInfo | null;
}

const EngineContext = createContext<EngineContextValue | null>(null);

/** Provides the engine's services and the app info (mode, secret storage) to every feature. */
export function EngineProvider({ api, children }: { api: EngineApi; children: ReactNode }): ReactNode {
  const [appInfo, setAppInfo] = useState<AppInfo | null>(null);
  const [appInfoError, setAppInfoError] = useState<ErrorInfo | null>(null);
  useEffect(() => {
    let live = true;
    api.app.info().then(
      (info) => live && setAppInfo(info),
      (error: unknown) => live && setAppInfoError(toErrorInfo(error)),
    );
    return () => {
      live = false;
    };
  }, [api]);
  return <EngineContext.Provider value={{ api, appInfo, appInfoError }}>{children}</EngineContext.Provider>;
}

/** The app info (mode, secret storage), once the engine told it. */
export function useEngine(): Omit<EngineContextValue, 'api'> {
  return useEngineContext();
}

/** One of the engine's services; each feature reaches its own through its `api.ts`. */
export function useService<S extends EngineService>(service: S): EngineApi[S] {
  return useEngineContext().api[service];
}

function useEngineContext(): EngineContextValue {
  const value = useContext(EngineContext);
  if (!value) throw new Error('The engine is asked for outside <EngineProvider>.');
  return value;
}
