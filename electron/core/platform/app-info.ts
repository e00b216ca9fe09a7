/** Name and version, injected at build time by esbuild/vite `define` (fallbacks for tests). */
declare const __RINGUP_VERSION__: string | undefined;

export const APP_NAME = 'Ringup';
export const APP_VERSION: string = typeof __RINGUP_VERSION__ === 'string' ? __RINGUP_VERSION__ : '0.0.0-dev';
