/**
 * Who the app is to the OS. Read by main (app name, Windows notifications' AppUserModelID) and by the
 * installers' configuration (electron/electron-builder.config.ts), so the two never disagree.
 */
export const PRODUCT_NAME = 'Flink Ops Console';
/** Reverse-DNS id: the macOS bundle id, the Windows AppUserModelID. Fixed: changing it orphans installs. */
export const APP_ID = 'dev.flinkops.console';
/** Folder name under the OS app-data folder. Fixed: renaming it would lose saved clusters. */
export const USER_DATA_FOLDER = 'flink-ops-console';
