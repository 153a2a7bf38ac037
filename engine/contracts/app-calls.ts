import type { AppApi } from './app.ts';
import { call, type ServiceCalls } from './call-spec.ts';

/** The app service's calls as the bridge checks them. */
export const APP_CALLS: ServiceCalls<AppApi> = {
  info: call(),
};
