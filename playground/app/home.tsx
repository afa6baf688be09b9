/**
 * The home page: the six tools and how to connect an agent.
 * @module
 */
import { usePageTitle } from '../shared/use-title.js';
import { TOOL_NAMES } from '../shared/tools.js';

/** The landing page at `/`. */
export function Home() {
  usePageTitle(['playground']);
  return (
    <main className="home-page">
      <h1>ai-ops playground</h1>
      <ul>
        {TOOL_NAMES.map((name) => (
          <li key={name}><a href={`/${name}/`}>{name}</a></li>
        ))}
        <li><a href="/sample/">sample</a> — a plain HTML page with three sample operations</li>
      </ul>
    </main>
  );
}
