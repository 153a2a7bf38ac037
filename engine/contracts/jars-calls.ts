import { z } from 'zod';
import { arg, call, type ServiceCalls } from './call-spec.ts';
import type { JarsApi } from './jars.ts';

/** The jars service's calls as the bridge checks them; the engine checks the file name and the bytes. */

const clusterId = arg('clusterId', z.string().min(1));

export const JARS_CALLS: ServiceCalls<JarsApi> = {
  list: call(clusterId),
  upload: call(clusterId, arg('upload', z.object({ fileName: z.string().min(1).max(255), contentBase64: z.string().min(1) }).strict())),
  delete: call(clusterId, arg('jarId', z.string().min(1).max(300))),
};
