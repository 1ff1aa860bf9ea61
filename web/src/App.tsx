import { Route, Switch } from "wouter";

// App maps every screen to its own URL (see docs/studio.md).
export function App() {
  return (
    <Switch>
      <Route path="/">
        <main className="page">
          <h1>edgeflow Studio</h1>
        </main>
      </Route>
      <Route>
        <main className="page">
          <h1>Page not found</h1>
        </main>
      </Route>
    </Switch>
  );
}
