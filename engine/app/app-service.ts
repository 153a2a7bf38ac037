import type { AppApi, AppInfo } from '../contracts/app.ts';

/** What the UI needs to know of the program it runs in: fixed for the process's life. */
export class AppService implements AppApi {
  constructor(private readonly appInfo: AppInfo) {}

  async info() {
    return { ...this.appInfo };
  }
}
