/**
 * The same flow from a small React app: `<OnboardingFlow>` from @onboarding-kit/react, with
 * typed `on...` props for the element's events and a ref to the element for `start()`.
 */
import { StrictMode, useCallback, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { OnboardingFlow } from '@onboarding-kit/react';
import type { OnboardingCompleteEvent, OnboardingFlow as OnboardingFlowElement } from '@onboarding-kit/element';
import { DEMO_LOCALES, type DemoLocale } from '../src/settings.js';
import { describeDetail, TEST_IDENTITIES } from '../src/test-identities.js';

interface LogEntry {
  id: number;
  name: string;
  detail: string;
}

function App() {
  const flow = useRef<OnboardingFlowElement>(null);
  const [locale, setLocale] = useState<DemoLocale>('pt-BR');
  const [cpf, setCpf] = useState('');
  const [log, setLog] = useState<LogEntry[]>([]);
  const [outcome, setOutcome] = useState<OnboardingCompleteEvent['detail'] | null>(null);
  const nextId = useRef(0);

  const record = useCallback((event: Event) => {
    const entry = { id: nextId.current++, name: event.type, detail: describeDetail((event as CustomEvent<unknown>).detail) };
    setLog((entries) => [entry, ...entries]);
  }, []);

  const [restarts, setRestarts] = useState(0);

  // Runs after the commit that gave the element its new `cpf`, so start() prefills it.
  useEffect(() => {
    if (restarts > 0) flow.current?.start();
  }, [restarts]);

  const startAs = (testCpf: string) => {
    setCpf(testCpf);
    setRestarts((n) => n + 1);
  };

  return (
    <>
      <header className="site">
        <h1>onboarding-kit demo</h1>
        <nav aria-label="Examples">
          <a href="/">Script tag</a>
          <a href="/react" aria-current="page">
            React
          </a>
          <a href="/vue">Vue</a>
        </nav>
      </header>
      <main className="layout">
        <section className="flow-column" aria-labelledby="flow-title">
          <h2 id="flow-title">React example</h2>
          <p className="muted">
            <code>{'<OnboardingFlow endpoint="/v1" onComplete={...} />'}</code> from <code>@onboarding-kit/react</code>.
          </p>
          <OnboardingFlow
            ref={flow}
            id="flow"
            endpoint="/v1"
            locale={locale}
            documentTypes="CNH,RG"
            cpf={cpf}
            onStepChange={record}
            onCapture={record}
            onSubmitted={record}
            onError={record}
            onCancel={record}
            onComplete={(event: OnboardingCompleteEvent) => {
              record(event);
              setOutcome(event.detail);
            }}
          />
        </section>
        <aside className="panel-column">
          <section className="panel" aria-labelledby="shortcuts-title">
            <h2 id="shortcuts-title">Test identities</h2>
            <ul className="shortcuts">
              {TEST_IDENTITIES.map((identity) => (
                <li key={identity.cpf}>
                  <button type="button" className={`shortcut ${identity.outcome.toLowerCase()}`} data-cpf={identity.cpf} onClick={() => startAs(identity.cpf)}>
                    <strong>{identity.outcome}</strong> {identity.cpf}
                  </button>
                </li>
              ))}
            </ul>
            <label htmlFor="setting-locale">Language </label>
            <select id="setting-locale" value={locale} onChange={(e) => setLocale(e.target.value as DemoLocale)}>
              {DEMO_LOCALES.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
          </section>
          <section className="panel" aria-labelledby="log-title">
            <h2 id="log-title">Events</h2>
            <p id="last-outcome" className="outcome-line" role="status" data-status={outcome?.status}>
              {outcome ? `Outcome: ${outcome.status}${outcome.externalId ? ` (externalId ${outcome.externalId})` : ''}` : 'No outcome yet.'}
            </p>
            <ol id="event-log" className="event-log">
              {log.map((entry) => (
                <li key={entry.id} data-event={entry.name}>
                  <code className="event-name">{entry.name}</code>
                  <pre>{entry.detail}</pre>
                </li>
              ))}
            </ol>
          </section>
        </aside>
      </main>
    </>
  );
}

createRoot(document.getElementById('app')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
