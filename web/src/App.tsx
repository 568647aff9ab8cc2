// The shell: sign-in until a key works, then the screen the hash names.
import { useCallback, useEffect, useState } from "react";
import { Provider } from "urql";
import { connect, forgetKey, storedKey, type Connection } from "./api";
import { ConnectionContext } from "./hooks";
import { useRoute } from "./route";
import { SignIn } from "./screens/SignIn";
import { Projects } from "./screens/Projects";
import { ProjectView } from "./screens/ProjectView";
import { DrawingView } from "./screens/DrawingView";
import { SheetViewer } from "./screens/SheetViewer";
import { Compare } from "./screens/Compare";
import { Comparison } from "./screens/Comparison";
import { Jobs, JobPage } from "./screens/Jobs";
import { Webhooks } from "./screens/Webhooks";

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
        <main>{screen}</main>
      </Provider>
    </ConnectionContext.Provider>
  );
}
