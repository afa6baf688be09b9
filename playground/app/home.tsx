/**
 * The home page: the six tools with what an agent can do on each, and how to connect each kind
 * of agent. It loads no tool code and no engine (APP-3): the list below is written by hand rather
 * than read from `ai-ops/tools/<tool>`, whose definitions belong in the pages' own chunks.
 * @module
 */
import { usePageTitle } from '../shared/use-title.js';
import type { ToolName } from '../shared/tools.js';

/** One operation as the home page describes it: its name, what it does, and whether it waits for the user's confirmation. */
type OperationNote = readonly [name: string, does: string, confirmed?: boolean];

/** One tool card. */
interface ToolNote {
  tool: ToolName;
  title: string;
  engine: string;
  summary: string;
  operations: readonly OperationNote[];
}

/** The six tools, in the nav's order (one entry a tool, its operations on one line). */
const TOOLS: readonly ToolNote[] = [
  { tool: 'sql', title: 'SQL コンソール', engine: 'PGlite (PostgreSQL を WebAssembly で)', summary: 'ブラウザーの中の PostgreSQL に SQL を書いて実行します。入力欄の SQL はページに保存されます。',
    operations: [['sql_read_query', '入力欄の SQL を読む'], ['sql_run_query', 'SQL を実行して文ごとの結果を返す(1 つのトランザクション)']] },
  { tool: 'slides', title: 'スライド', engine: 'Marp', summary: 'Markdown で書いたスライドをその場で描きます。デッキごとに保存されます。',
    operations: [['slides_read', 'Markdown・テーマ・枚数を読む'], ['slides_write', 'Markdown の全文を置き換える', true], ['slides_set_theme', 'テーマを変える']] },
  { tool: 'excalidraw', title: 'Excalidraw', engine: 'Excalidraw', summary: '手描き風の図を描くホワイトボードです。',
    operations: [['excalidraw_read', '図の要素を読む'], ['excalidraw_add_elements', '図形や矢印、文字を足す'], ['excalidraw_update_element', '要素の位置や文字を変える'], ['excalidraw_clear', '図をすべて消す', true]] },
  { tool: 'drawio', title: 'draw.io 図', engine: 'maxGraph', summary: 'draw.io 形式(mxGraph の XML)の図を表示し、編集します。',
    operations: [['drawio_read', '図の XML を読む'], ['drawio_add_cells', '図形とつなぎ線を足す'], ['drawio_write', '図の XML を置き換える', true]] },
  { tool: 'node', title: 'Node', engine: 'このサーバーの Node(サンドボックスの中)', summary: 'ファイルを書き、サーバー側のサンドボックスで node や npm のコマンドを実行します。',
    operations: [['node_list_files', 'ファイルの一覧を見る'], ['node_read_file', 'ファイルを読む'], ['node_write_file', 'ファイルを書く'], ['node_delete_file', 'ファイルを消す', true], ['node_run_command', 'コマンドを実行して出力を返す']] },
  { tool: 'go', title: 'Go', engine: 'Yaegi (Go のインタープリターを WebAssembly で)', summary: 'Go のファイルを書き、ブラウザーの中で実行やテストをします。',
    operations: [['go_list_files', 'ファイルの一覧を見る'], ['go_read_file', 'ファイルを読む'], ['go_write_file', 'ファイルを書く'], ['go_delete_file', 'ファイルを消す', true], ['go_run', 'プログラムを実行して出力を返す'], ['go_test', 'テストを実行して結果を返す']] },
];

/**
 * Playwright MCP's config for a Chromium with its own WebMCP, headed (FIRST-6): the user verifies
 * the switch-on in the browser's window, which a headless browser does not have (the README says so).
 */
const PLAYWRIGHT_CONFIG = JSON.stringify({
  browser: {
    browserName: 'chromium',
    isolated: true,
    launchOptions: { executablePath: '/usr/bin/chromium', headless: false, args: ['--enable-features=WebMCP'] },
  },
}, null, 2);

const PLAYWRIGHT_SERVER = JSON.stringify({
  mcpServers: { playwright: { command: 'npx', args: ['@playwright/mcp@0.0.83', '--config', 'playwright-mcp.json'] } },
});

/** A block of code the reader copies; focusable so a keyboard user can scroll it. */
function Code({ children, label }: { children: string; label: string }) {
  return <pre className="home-code" tabIndex={0} aria-label={label}><code>{children}</code></pre>;
}

function ToolCard({ note }: { note: ToolNote }) {
  const id = `tool-${note.tool}`;
  return (
    <li className="home-tool" aria-labelledby={id}>
      <h3 id={id}><a href={`/${note.tool}/`}>{note.title}</a> <span className="home-tool-path">/{note.tool}/</span></h3>
      <p>{note.summary}</p>
      <p className="home-engine">エンジン: {note.engine}</p>
      <h4 className="visually-hidden">{note.title} で AI のエージェントができること</h4>
      <ul className="home-ops">
        {note.operations.map(([name, does, confirmed]) => (
          <li key={name}>
            <code>{name}</code> {does}
            {confirmed ? <span className="home-badge" title="実行の前に、ページの確認ダイアログであなたが確定します">確認あり</span> : null}
          </li>
        ))}
      </ul>
    </li>
  );
}

/** The landing page at `/`. */
export function Home() {
  usePageTitle(['playground']);
  const origin = location.origin;
  const relayCommand = `npx --offline --no-install ai-ops-relay --widget-origin ${origin}`;
  const relayConfig = JSON.stringify({
    mcpServers: { 'ai-ops': { command: 'npx', args: ['--offline', '--no-install', 'ai-ops-relay', '--widget-origin', origin] } },
  }, null, 2);
  return (
    <main className="home-page">
      <header className="home-hero">
        <h1>ai-ops playground</h1>
        <p>6 つのツールのページが、その操作をあなたの AI のエージェントに渡します。各ページのヘッダーの右端にあるスイッチ「AI からの操作」をオンにしている間だけ、エージェントがそのページを操作できます(許可はツールごとに 7 日間)。書き換える操作のうち「確認あり」のものは、ページに出る確認ダイアログであなたが確定してから実行され、すべての呼び出しはページ下の操作ログに残ります。</p>
      </header>

      <section aria-labelledby="home-tools">
        <h2 id="home-tools">ツール</h2>
        <p className="home-sample"><a href="/sample/">sample</a> — React もバンドラーも使わない、ふつうの HTML のページ(操作 3 つ)。タグを書くだけでどのページにも載せられることの見本です。</p>
        <ul className="home-tools">
          {TOOLS.map((note) => <ToolCard key={note.tool} note={note} />)}
        </ul>
      </section>

      <section aria-labelledby="home-connect">
        <h2 id="home-connect">エージェントのつなぎ方</h2>
        <p>どのつなぎ方でも、エージェントに使わせたいページを開き、そのスイッチをオンにします。ページを移ると、前のページの操作はエージェントから見えなくなります。</p>
        <div className="home-connect">
          <article aria-labelledby="connect-relay">
            <h3 id="connect-relay">MCP クライアント(Claude Code、Cursor など)</h3>
            <p>このリポジトリーのフォルダーで、中継(リレー)のコマンドをクライアントに登録します。ページの中の小さな部品が 127.0.0.1 のリレーにつながります。</p>
            <Code label="リレーのコマンド">{relayCommand}</Code>
            <p>クライアントの設定(Claude Code の <code>.mcp.json</code>、Cursor の <code>.cursor/mcp.json</code>):</p>
            <Code label="MCP クライアントの設定">{relayConfig}</Code>
          </article>
          <article aria-labelledby="connect-playwright">
            <h3 id="connect-playwright">Playwright MCP</h3>
            <p>エージェントが動かすブラウザーで、このページを開かせます。WebMCP を有効にした Chromium の設定 <code>playwright-mcp.json</code>:</p>
            <Code label="playwright-mcp.json">{PLAYWRIGHT_CONFIG}</Code>
            <p>MCP クライアントへの登録:</p>
            <Code label="Playwright MCP の登録">{PLAYWRIGHT_SERVER}</Code>
            <p>操作は <code>webmcp_</code> で始まる名前でエージェントに見えます。</p>
          </article>
          <article aria-labelledby="connect-browser">
            <h3 id="connect-browser">ブラウザー自身の WebMCP</h3>
            <p>WebMCP のあるブラウザー(Chromium 156 では <code>--enable-features=WebMCP</code>)では、スイッチをオンにするだけで操作がブラウザーの <code>document.modelContext</code> に載り、ブラウザーのエージェントや拡張機能から使えます。インストールするものはありません。</p>
          </article>
        </div>
      </section>
    </main>
  );
}
