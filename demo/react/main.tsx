/**
 * The same flow from a small React app: `<OnboardingFlow>` from @onboarding-kit/react, with
 * typed `on...` props for the element's events and its `session` prop. The session comes from
 * the demo backend, as on `/`: the one it rendered into the page, then a new one per test
 * identity (a new `session` starts the flow over by itself); the log also shows the
 * notifications its receiver verified.
 */
import { StrictMode, useCallback, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { OnboardingFlow } from '@onboarding-kit/react';
import type { OnboardingCompleteEvent } from '@onboarding-kit/element';
import {
  describeNotification,
  openSession,
  renderedSession,
  sessionIdOf,
  watchNotifications,
  type DemoNotification,
} from '../src/demo-session.js';
import { DEMO_LOCALES, type DemoLocale } from '../src/settings.js';
import { describeDetail, TEST_IDENTITIES } from '../src/test-identities.js';

/** The receiver's notifications, for every session this page held; one watcher for the page's life. */
const notificationListeners = new Set<(n: DemoNotification) => void>();
const notifications = watchNotifications((n) => {
  for (const listener of notificationListeners) listener(n);
});

interface LogEntry {
  id: number;
  name: string;
  detail: string;
}

/** The page's log, newest first: the element's events as `record` is handed them, and the receiver's notifications. */
function useEventLog() {
  const [log, setLog] = useState<LogEntry[]>([]);
  const nextId = useRef(0);
  const add = useCallback((name: string, detail: string) => {
    const entry = { id: nextId.current++, name, detail };
    setLog((entries) => [entry, ...entries]);
  }, []);
  const record = useCallback((event: Event) => add(event.type, describeDetail((event as CustomEvent<unknown>).detail)), [add]);

  useEffect(() => {
    const show = (n: DemoNotification) => add(`notification ${n.type}`, describeNotification(n));
    notificationListeners.add(show);
    return () => void notificationListeners.delete(show);
  }, [add]);
  return { log, add, record };
}

function App() {
  const [locale, setLocale] = useState<DemoLocale>('pt-BR');
  const [cpf, setCpf] = useState('');
  const { log, add, record } = useEventLog();
  const [outcome, setOutcome] = useState<OnboardingCompleteEvent['detail'] | null>(null);

  const [session, setSession] = useState<string | null>(() => renderedSession());
  const sessionId = useRef<Promise<string | null>>(Promise.resolve(null));

  useEffect(() => {
    if (session) sessionId.current = sessionIdOf('/v1', session);
  }, [session]);

  const startAs = async (testCpf: string) => {
    let secret: string;
    try {
      secret = await openSession({ ...(testCpf && { cpf: testCpf }), locale, page: '/react' });
    } catch (e) {
      add('demo-backend', `could not open a session: ${(e as Error).message}`);
      return;
    }
    // One render for both, so the restart the new session causes already has the CPF.
    setCpf(testCpf);
    setSession(secret);
  };

  return (
    <>
      <SiteHeader />
      <main className="layout">
        <section className="flow-column" aria-labelledby="flow-title">
          <h2 id="flow-title">React example</h2>
          <p className="muted">
            <code>{'<OnboardingFlow endpoint="/v1" onComplete={...} />'}</code> from <code>@onboarding-kit/react</code>.
          </p>
          <OnboardingFlow
            id="flow"
            endpoint="/v1"
            locale={locale}
            documentTypes="CNH,RG"
            cpf={cpf}
            session={session ?? ''}
            onStepChange={record}
            onCapture={record}
            onSubmitted={(event) => {
              void sessionId.current.then((id) => id && notifications.follow(id));
              record(event);
            }}
            onError={record}
            onCancel={record}
            onComplete={(event: OnboardingCompleteEvent) => {
              record(event);
              setOutcome(event.detail);
            }}
          />
        </section>
        <aside className="panel-column">
          <ShortcutsPanel locale={locale} setLocale={setLocale} startAs={startAs} />
          <EventsPanel outcome={outcome} log={log} />
        </aside>
      </main>
    </>
  );
}

function SiteHeader() {
  return (
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
  );
}

/** The test identities, each opening a new session with its CPF, and the language of the next one. */
function ShortcutsPanel({
  locale,
  setLocale,
  startAs,
}: {
  locale: DemoLocale;
  setLocale: (l: DemoLocale) => void;
  startAs: (cpf: string) => Promise<void>;
}) {
  return (
    <section className="panel" aria-labelledby="shortcuts-title">
      <h2 id="shortcuts-title">Test identities</h2>
      <ul className="shortcuts">
        {TEST_IDENTITIES.map((identity) => (
          <li key={identity.cpf}>
            <button
              type="button"
              className={`shortcut ${identity.outcome.toLowerCase()}`}
              data-cpf={identity.cpf}
              onClick={() => void startAs(identity.cpf)}
            >
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
  );
}

function EventsPanel({ outcome, log }: { outcome: OnboardingCompleteEvent['detail'] | null; log: LogEntry[] }) {
  return (
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
  );
}

createRoot(document.getElementById('app')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
