/**
 * The header every tool page shows: the home link, the nav between tools, the page's name and the
 * document's, the page's own controls, and the switch 「AI からの操作」 at the right end (SW-1).
 * @module
 */
import type { ReactNode } from 'react';
import { AiOpsSwitch } from 'ai-ops/react';
import { TOOL_NAMES, type ToolName } from './tools.js';

/** Props of {@link ToolHeader}. */
export interface ToolHeaderProps {
  tool: ToolName;
  /** The page's name, e.g. `SQL`, `スライド`. */
  title: string;
  /** The open document or embed id, shown beside the title (DOC-3). */
  documentName?: string;
  /** Extra controls placed before the switch (a document bar, buttons). */
  children?: ReactNode;
}

/** The page header with the nav and the switch. */
export function ToolHeader({ tool, title, documentName, children }: ToolHeaderProps) {
  return (
    <header className="page-header">
      <a className="home" href="/">ai-ops</a>
      <nav aria-label="ツール" className="tool-nav">
        {TOOL_NAMES.map((name) => (
          <a key={name} href={`/${name}/`} aria-current={name === tool ? 'page' : undefined}>{name}</a>
        ))}
      </nav>
      <h1>{title}</h1>
      {documentName ? <span className="doc-name">{documentName}</span> : null}
      {children}
      <AiOpsSwitch tool={tool} />
    </header>
  );
}
