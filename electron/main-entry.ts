// Entry of the Electron main bundle. Kept apart from main.ts so tests can import
// main.ts (with a mocked 'electron') without starting an app.
import { startApp } from './main';

startApp().catch((err: unknown) => {
  console.error('Ringup failed to start:', err);
  process.exit(1);
});
