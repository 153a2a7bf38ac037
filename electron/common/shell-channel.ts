/**
 * The shell's two IPC channels, beside the engine's (`engine-channel.ts`): the page's calls to the shell
 * (`ShellApi`, checked against SHELL_METHODS) and the shell's events to the page (menu commands, links).
 */
export const SHELL_CHANNEL = 'shell:invoke';
export const SHELL_EVENT_CHANNEL = 'shell:event';
