import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { FirstRunGate } from './gateway/first-run-screen';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <FirstRunGate>
      <App />
    </FirstRunGate>
  </StrictMode>,
);
