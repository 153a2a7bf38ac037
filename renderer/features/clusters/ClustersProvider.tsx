import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { ClusterConfig } from '../../../engine/contracts/clusters';
import type { ErrorInfo } from '../../../engine/contracts/errors';
import { toErrorInfo } from '../../components/errors';
import { useClustersApi } from './api';

interface ClustersValue {
  clusters: ClusterConfig[] | null;
  error: ErrorInfo | null;
  loading: boolean;
  reload(): Promise<void>;
}

const ClustersContext = createContext<ClustersValue | null>(null);

/** The saved clusters: loaded once, reloaded after a save or a removal (no polling needed). */
export function ClustersProvider({ children }: { children: ReactNode }): ReactNode {
  const clustersApi = useClustersApi();
  const [clusters, setClusters] = useState<ClusterConfig[] | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const list = await clustersApi.list();
      if (mine !== generation.current) return;
      setClusters(list);
      setError(null);
    } catch (e) {
      if (mine !== generation.current) return;
      setError(toErrorInfo(e));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, [clustersApi]);

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
