/**
 * The app's shell: the page the path names (the home page or a tool page, each loaded on demand),
 * the one confirmation dialog every page shares, and the handling of the app's own links.
 * @module
 */
import { Component, Suspense, useEffect, type ReactNode } from 'react';
import { AiOpsConfirm } from 'ai-ops/react';
import { Home } from './home.js';
import { handleLinkClick, usePathname } from '../shared/router.js';
import { isRouted, toolOfPath, toolPages } from './routes.js';

/** Shows a page's failure to load instead of a blank screen; keyed by the path, so it resets. */
class PageBoundary extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    if (this.state.error) {
      return <p role="alert" className="notice">このページを読み込めませんでした: {this.state.error.message}</p>;
    }
    return this.props.children;
  }
}

/** The whole playground. */
export function App() {
  const path = usePathname();
  useEffect(() => {
    const onClick = (event: MouseEvent) => handleLinkClick(event, isRouted);
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, []);
  const tool = toolOfPath(path);
  const Page = tool ? toolPages[tool] : undefined;
  return (
    <>
      <PageBoundary key={path}>
        <Suspense fallback={<p className="loading" role="status">読み込み中…</p>}>
          {Page ? <Page /> : <Home />}
        </Suspense>
      </PageBoundary>
      <AiOpsConfirm />
    </>
  );
}
