// The shell: sign-in until a key works, then the screen the hash names.
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { Provider } from "urql";
import { connect, forgetKey, storedKey, type Connection } from "./api";
import { ConnectionContext } from "./hooks";
import { useRoute } from "./route";
import { SignIn } from "./screens/SignIn";
import { Projects } from "./screens/Projects";
import { ProjectView } from "./screens/ProjectView";
import { DrawingView } from "./screens/DrawingView";
import { Compare } from "./screens/Compare";
import { Jobs, JobPage } from "./screens/Jobs";
import { Webhooks } from "./screens/Webhooks";
import { ErrorBoundary } from "./ErrorBoundary";

// The two deep-zoom screens (and OpenSeadragon, almost half the app's
// script) load when first opened, so the first screen does not wait for them.
const SheetViewer = lazy(() => import("./screens/SheetViewer").then((m) => ({ default: m.SheetViewer })));
const Comparison = lazy(() => import("./screens/Comparison").then((m) => ({ default: m.Comparison })));

export function App() {
  const [conn, setConn] = useState<Connection | null>(() => {
    const k = storedKey();
    return k ? connect(k) : null;
  });
  useEffect(() => () => conn?.close(), [conn]);
  const signOut = useCallback(() => {
    forgetKey();
    setConn(null);
  }, []);
  const route = useRoute();
  if (!conn) return <SignIn onSignedIn={setConn} />;
  let screen;
  switch (route.screen) {
    case "projects":
      screen = <Projects />;
      break;
    case "project":
      screen = <ProjectView id={route.id} />;
      break;
    case "drawing":
      screen = <DrawingView id={route.id} />;
      break;
    case "sheet":
      screen = <SheetViewer id={route.id} focus={route.focus} />;
      break;
    case "compare":
      screen = <Compare projectID={route.projectID} />;
      break;
    case "comparison":
      screen = <Comparison id={route.id} overlay={route.overlay} />;
      break;
    case "jobs":
      screen = <Jobs projectID={route.projectID} />;
      break;
    case "job":
      screen = <JobPage id={route.id} />;
      break;
    case "webhooks":
      screen = <Webhooks />;
  }
  return (
    <ConnectionContext.Provider value={conn}>
      <Provider value={conn.client}>
        <header className="top">
          <a className="brand" href="#/">
            plangraph
          </a>
          <nav>
            <a href="#/">Projects</a>
            <a href="#/webhooks">Webhooks</a>
            <button type="button" className="link" onClick={signOut}>
              Sign out
            </button>
          </nav>
        </header>
        <main>
          <ErrorBoundary key={location.hash}>
            <Suspense fallback={<p>Loading…</p>}>{screen}</Suspense>
          </ErrorBoundary>
        </main>
      </Provider>
    </ConnectionContext.Provider>
  );
}
