import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { ClusterConfig, ErrorInfo } from '../../../engine/contracts/engine-api';
import { useEngine } from '../../app/engine';
import { toErrorInfo } from '../../components/errors';

interface ClustersValue {
  clusters: ClusterConfig[] | null;
  error: ErrorInfo | null;
  loading: boolean;
  reload(): Promise<void>;
}

const ClustersContext = createContext<ClustersValue | null>(null);

/** The saved clusters: loaded once, reloaded after a save or a removal (no polling needed). */
export function ClustersProvider({ children }: { children: ReactNode }): ReactNode {
  const { api } = useEngine();
  const [clusters, setClusters] = useState<ClusterConfig[] | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const list = await api.listClusters();
      if (mine !== generation.current) return;
      setClusters(list);
      setError(null);
    } catch (e) {
      if (mine !== generation.current) return;
      setError(toErrorInfo(e));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, [api]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return <ClustersContext.Provider value={{ clusters, error, loading, reload }}>{children}</ClustersContext.Provider>;
}

export function useClusters(): ClustersValue {
  const value = useContext(ClustersContext);
  if (!value) throw new Error('useClusters() outside <ClustersProvider>.');
  return value;
}

export function useCluster(clusterId: string): ClusterConfig | null {
  return useClusters().clusters?.find((c) => c.id === clusterId) ?? null;
}
