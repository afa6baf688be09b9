/**
 * The playground's terminal: `@xterm/xterm` in a thin React shell (APP-4). It renders what it is
 * given as a terminal does — colours, bold, `\r` rewriting the line — so the runner's coloured
 * output shows coloured; what an agent receives is stripped elsewhere (NODE-5/7). Output only: no
 * keyboard input reaches a process through it. The page loads xterm's stylesheet
 * (`@xterm/xterm/css/xterm.css`, copied beside the page by its build).
 * @module
 */
import { useEffect, useRef, type Ref } from 'react';
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { setRef } from './set-ref.js';

/** What a page does with the terminal. */
export interface TerminalHandle {
  /** Writes text as a process wrote it (`\n` starts a new line). */
  write(text: string): void;
  /** Clears the screen and the scrollback. */
  clear(): void;
}

/** Props of {@link TerminalView}. */
export interface TerminalViewProps {
  /** The terminal's accessible name. */
  label: string;
  /** Receives the handle while mounted (null after). */
  terminalRef?: Ref<TerminalHandle | null>;
  className?: string;
}

/**
 * An output-only xterm terminal that fits its box.
 * @example
 * const terminal = useRef<TerminalHandle>(null);
 * <TerminalView label="プロセスの出力" terminalRef={terminal} />
 * terminal.current?.write('\x1b[31mred\x1b[0m\n');
 */
export function TerminalView({ label, terminalRef, className }: TerminalViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const latestRef = useRef(terminalRef);
  latestRef.current = terminalRef;

  useEffect(() => {
    const box = host.current;
    if (!box) return;
    const terminal = new Terminal({
      convertEol: true,
      disableStdin: true,
      cursorBlink: false,
      cursorStyle: 'bar',
      cursorInactiveStyle: 'none',
      scrollback: 5000,
      fontSize: 12.5,
      fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace',
      // Screen readers get the lines as text, and new output is announced.
      screenReaderMode: true,
      theme: { background: '#0d1117', foreground: '#e6edf3' },
    });
    const fit = new FitAddon();
    terminal.loadAddon(fit);
    terminal.open(box);
    const refit = () => {
      // A hidden tab has no size: keep the last one.
      if (box.clientWidth > 0 && box.clientHeight > 0) fit.fit();
    };
    refit();
    const resize = new ResizeObserver(refit);
    resize.observe(box);
    const handle: TerminalHandle = {
      write: (text) => terminal.write(text),
      clear: () => terminal.reset(),
    };
    setRef(latestRef.current, handle);
    return () => {
      setRef(latestRef.current, null);
      resize.disconnect();
      terminal.dispose();
      box.replaceChildren();
    };
  }, []);

  return <div ref={host} className={['terminal-view', className].filter(Boolean).join(' ')} role="region" aria-label={label} />;
}
