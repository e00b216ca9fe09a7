import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { CustomerDisplay } from './display/customer-display';
import { isDisplayView } from './display/display-view-request';
import { FirstRunGate } from './gateway/first-run-screen';
import './styles.css';

// `#…&view=display`: this page is the customer display (a second screen), nothing of the counter's.
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {isDisplayView() ? (
      <CustomerDisplay />
    ) : (
      <FirstRunGate>
        <App />
      </FirstRunGate>
    )}
  </StrictMode>,
);
