// A screen that fails while rendering (a bug, or a screen's script that no
// longer loads after the server was updated) shows what went wrong and a way
// on, not a blank page. Keyed by the route, so that moving to another screen
// starts afresh.
import { Component, type ReactNode } from "react";

interface Props {
  children: ReactNode;
}

interface State {
  error: Error | null;
}

export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    // a chunk that is gone (a new build was deployed) loads again with the page
    const stale = /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(error.message);
    return (
      <div className="failed" role="alert">
        <p className="error">
          {stale ? "This screen was updated on the server: reload the page to open it." : `This screen failed: ${error.message}`}
        </p>
        <p>
          <button type="button" onClick={() => location.reload()}>
            Reload
          </button>{" "}
          <a href="#/">Back to the projects</a>
        </p>
      </div>
    );
  }
}
