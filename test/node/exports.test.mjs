// PKG-3: the package's public surface is a visible decision, for three audiences: page authors
// (`ai-ops`, at most 30 names with the types), tool authors (`ai-ops/tools`, `ai-ops/tools/<tool>`)
// and builders on the runtime (`ai-ops/internals`). The names every `exports` entry offers are
// pinned below (one sorted list of "<entry> <name>"); a change to the surface fails here with the
// lines added and removed. To accept a change, print the new list and paste it:
//   node test/node/exports.test.mjs --print
// The entries themselves must agree three ways: `exports`, the tools/<tool>/ folders, and the
// README's "Import paths" table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { documentedImports, documentedSpecifiers, exportedNames, localImportGraph, pkg, readmeEntries, resolvesInExports, root, sourceEntries } from './exports.lib.mjs';

const PINNED = [
  '. AiOps',
  '. AiOpsOptions',
  '. AnyOperationDefinition',
  '. CallContext',
  '. ConfirmationContent',
  '. ErrorCode',
  '. InputOf',
  '. InputSchema',
  '. OperationAnnotations',
  '. OperationDefinition',
  '. OperationFailure',
  '. OperationResult',
  '. OperationSuccess',
  '. PrepareContext',
  '. ReadableStore',
  '. SessionStatus',
  '. ToolSession',
  '. ToolSessionState',
  '. UndoStep',
  '. UndoableResult',
  '. WritableStore',
  '. configureAiOps',
  '. createAiOps',
  '. createStore',
  '. defineOperation',
  '. fail',
  '. getAiOps',
  '. isFailure',
  '. provideOperations',
  '. succeed',
  './bundle AiOps',
  './bundle AiOpsOptions',
  './bundle AiOpsStrings',
  './bundle AiOpsSwitch',
  './bundle AnyOperationDefinition',
  './bundle CallContext',
  './bundle ConfirmationContent',
  './bundle ErrorCode',
  './bundle InputOf',
  './bundle InputSchema',
  './bundle OperationAnnotations',
  './bundle OperationDefinition',
  './bundle OperationFailure',
  './bundle OperationResult',
  './bundle OperationSuccess',
  './bundle PrepareContext',
  './bundle ReadableStore',
  './bundle SessionStatus',
  './bundle ToolSession',
  './bundle ToolSessionState',
  './bundle UndoStep',
  './bundle UndoableResult',
  './bundle WritableStore',
  './bundle aiOpsContext',
  './bundle configureAiOps',
  './bundle createAiOps',
  './bundle createStore',
  './bundle defineAiOpsElements',
  './bundle defineOperation',
  './bundle fail',
  './bundle getAiOps',
  './bundle isFailure',
  './bundle loadAiOpsElements',
  './bundle provideOperations',
  './bundle setAiOpsStrings',
  './bundle succeed',
  './elements AiOpsConfirm',
  './elements AiOpsConfirmApproveDetail',
  './elements AiOpsConfirmApproveEvent',
  './elements AiOpsConfirmDeclineDetail',
  './elements AiOpsConfirmDeclineEvent',
  './elements AiOpsDeclineReason',
  './elements AiOpsElement',
  './elements AiOpsLog',
  './elements AiOpsLogMode',
  './elements AiOpsLogVisibilityChangeDetail',
  './elements AiOpsLogVisibilityChangeEvent',
  './elements AiOpsStrings',
  './elements AiOpsSwitch',
  './elements AiOpsSwitchChangeDetail',
  './elements AiOpsSwitchChangeEvent',
  './elements StoreController',
  './elements aiOpsContext',
  './elements aiOpsElements',
  './elements aiOpsStringsStore',
  './elements defaultAiOpsStrings',
  './elements fillString',
  './elements resolveAiOpsStrings',
  './elements setAiOpsStrings',
  './elements/define.js aiOpsTagNames',
  './elements/define.js defineAiOpsElements',
  './elements/define.js loadAiOpsElements',
  './elements/strings-en.js aiOpsStringsEn',
  './internals ApproveOptions',
  './internals AuditLine',
  './internals CONFIRMATION_DEADLINE_MS',
  './internals CallHooks',
  './internals CallOptions',
  './internals CallOutcome',
  './internals CallToolResult',
  './internals CallVia',
  './internals Clock',
  './internals CompiledOperation',
  './internals ConfirmationAnswer',
  './internals ConfirmationQueue',
  './internals ConfirmationRequest',
  './internals ConfirmationRequestInit',
  './internals ConfirmationState',
  './internals LOG_LIMIT',
  './internals LogEntry',
  './internals LogStatus',
  './internals ModelContextLike',
  './internals ModelContextTool',
  './internals OperationLog',
  './internals PERMISSION_TTL_MS',
  './internals PageCapabilities',
  './internals PageDecisions',
  './internals PageRelay',
  './internals PageVerification',
  './internals PermissionState',
  './internals PermissionStore',
  './internals RelayConnector',
  './internals RelayOptions',
  './internals ScriptLoader',
  './internals SignedInput',
  './internals StoredPermission',
  './internals TimerHandle',
  './internals UNDO_BUDGET_BYTES',
  './internals UndoAnswer',
  './internals UndoKeeper',
  './internals UndoKeeperDeps',
  './internals UndoState',
  './internals auditFileName',
  './internals auditLine',
  './internals auditRecord',
  './internals compileOperation',
  './internals createConfirmationQueue',
  './internals createDomScriptLoader',
  './internals createOperationLog',
  './internals createPermissionStore',
  './internals createRelayConnector',
  './internals createToolSession',
  './internals createUndoKeeper',
  './internals describeCall',
  './internals describeLaterChanges',
  './internals installToolsChangedShim',
  './internals isEmbedded',
  './internals isValidName',
  './internals parseStoredPermission',
  './internals permissionKey',
  './internals runCall',
  './internals serialize',
  './internals statusOf',
  './internals systemClock',
  './internals toCallToolResult',
  './react AiOpsConfirm',
  './react AiOpsLog',
  './react AiOpsSwitch',
  './react useAiOpsStore',
  './tools ConformanceCase',
  './tools ConformanceError',
  './tools ConformanceExpectation',
  './tools ConformanceOptions',
  './tools ConformanceProblem',
  './tools ConformanceReport',
  './tools DocumentContext',
  './tools FileEntry',
  './tools FileOperationsOptions',
  './tools FileStore',
  './tools MAX_LIST_ENTRIES',
  './tools MAX_OUTPUT_CHARS',
  './tools MAX_SQL_ROWS',
  './tools MAX_TEXT_BYTES',
  './tools OpenDocument',
  './tools PathKind',
  './tools RELAY_WAIT_NOTE',
  './tools RunOutcome',
  './tools RunOutput',
  './tools RunRequest',
  './tools RunWording',
  './tools TIMEOUT_MS',
  './tools assertConformance',
  './tools checkConformance',
  './tools conformanceCases',
  './tools createDocumentGuard',
  './tools createEngineGuard',
  './tools createFileOperations',
  './tools deleteFileSchema',
  './tools describeError',
  './tools emptyInputSchema',
  './tools head',
  './tools isSuccess',
  './tools listFilesSchema',
  './tools outputFields',
  './tools readFileSchema',
  './tools resolveRelativePath',
  './tools runAnswer',
  './tools stripTerminalControls',
  './tools tail',
  './tools textSchema',
  './tools timeoutSchema',
  './tools toolConformanceOptions',
  './tools utf8ByteLength',
  './tools writeFileSchema',
  './tools/drawio DrawioToolAdapter',
  './tools/drawio addCellsSchema',
  './tools/drawio createDrawioOperations',
  './tools/drawio drawioInputSchemas',
  './tools/drawio drawioWriteSchema',
  './tools/drawio inflateDiagramText',
  './tools/drawio parseXml',
  './tools/excalidraw BACKGROUND_COLOR_PATTERN',
  './tools/excalidraw COLOR_PATTERN',
  './tools/excalidraw ElementPatch',
  './tools/excalidraw ElementToAdd',
  './tools/excalidraw ExcalidrawElementLike',
  './tools/excalidraw ExcalidrawOperationsOptions',
  './tools/excalidraw ExcalidrawToolAdapter',
  './tools/excalidraw MAX_NEW_ELEMENTS',
  './tools/excalidraw NewElementType',
  './tools/excalidraw addElementsSchema',
  './tools/excalidraw createExcalidrawOperations',
  './tools/excalidraw excalidrawInputSchemas',
  './tools/excalidraw newElementSchema',
  './tools/excalidraw updateElementSchema',
  './tools/go GoFileEntry',
  './tools/go GoFilesModule',
  './tools/go GoRunMode',
  './tools/go GoRunOutcome',
  './tools/go GoRunRequest',
  './tools/go GoRunnerStatus',
  './tools/go GoToolAdapter',
  './tools/go createGoOperations',
  './tools/go goInputSchemas',
  './tools/go goRunSchema',
  './tools/node NODE_COMMAND_LIMITS',
  './tools/node NodeChangeResult',
  './tools/node NodeExcludeRules',
  './tools/node NodeFileErrorCode',
  './tools/node NodeFileFailure',
  './tools/node NodeInterruptedRun',
  './tools/node NodeReadResult',
  './tools/node NodeRunOutcome',
  './tools/node NodeRunRequest',
  './tools/node NodeRuntimeLike',
  './tools/node NodeToolAdapter',
  './tools/node NodeTreeEntry',
  './tools/node NodeTreeStore',
  './tools/node createExcludeMatcher',
  './tools/node createNodeOperations',
  './tools/node nodeInputSchemas',
  './tools/node runCommandSchema',
  './tools/slides SlidesSetThemeSchema',
  './tools/slides SlidesToolAdapter',
  './tools/slides createSlidesOperations',
  './tools/slides slidesWriteSchema',
  './tools/sql SqlEngineStatus',
  './tools/sql SqlErrorLike',
  './tools/sql SqlFieldLike',
  './tools/sql SqlRunEnd',
  './tools/sql SqlRunOutcome',
  './tools/sql SqlRunRequest',
  './tools/sql SqlStatementResultLike',
  './tools/sql SqlToolAdapter',
  './tools/sql createSqlOperations',
  './tools/sql runQuerySchema',
  './tools/sql sqlInputSchemas',
  './verify AuditProblemKind',
  './verify AuditReceiptLine',
  './verify AuditRecordCheck',
  './verify ConsentDescription',
  './verify INPUT_NOT_CHECKED',
  './verify PublicKeyRecord',
  './verify Receipt',
  './verify VerifyAuditRecordOptions',
  './verify VerifyReceiptOptions',
  './verify canonicalJson',
  './verify challengeOf',
  './verify checkReceipt',
  './verify explainReceipt',
  './verify fingerprint',
  './verify inputDigest',
  './verify verifyAuditRecord',
  './verify verifyReceipt',
];

/** What a page never needs from the root entry: the runtime's building blocks and the tool kit. */
const NOT_FOR_PAGES = [
  'createToolSession', 'installToolsChangedShim', 'parseStoredPermission', 'createPermissionStore',
  'createConfirmationQueue', 'createOperationLog', 'createRelayConnector', 'createDomScriptLoader',
  'toCallToolResult', 'serialize', 'compileOperation', 'runCall', 'isValidName', 'permissionKey', 'statusOf',
  'systemClock', 'isEmbedded',
  'MAX_SQL_ROWS', 'MAX_TEXT_BYTES', 'TIMEOUT_MS', 'textSchema', 'timeoutSchema', 'readFileSchema', 'writeFileSchema',
  'createFileOperations', 'createDocumentGuard', 'toolConformanceOptions', 'checkConformance',
];

/** The six tools, from their folders: a folder of tools/ with an operations.ts. */
async function toolFolders() {
  const dirs = await readdir(join(root, 'tools'), { withFileTypes: true });
  return dirs.filter((d) => d.isDirectory() && existsSync(join(root, 'tools', d.name, 'operations.ts'))).map((d) => d.name).sort();
}

let memo;
const current = () => (memo ??= Object.entries(exportedNames(sourceEntries()))
  .flatMap(([entry, names]) => names.map((name) => `${entry} ${name}`))
  .sort());

if (process.argv.includes('--print')) {
  process.stdout.write(`${current().map((line) => `  '${line}',`).join('\n')}\n`);
  process.exit(0);
}

test('[PKG-3] every exports entry offers exactly the pinned names', () => {
  const now = current();
  const added = now.filter((line) => !PINNED.includes(line));
  const removed = PINNED.filter((line) => !now.includes(line));
  assert.deepEqual({ added, removed }, { added: [], removed: [] },
    'the public surface changed; if that is intended, run `node test/node/exports.test.mjs --print` and paste the list into PINNED');
});

test('[PKG-3] [SHAPE-1] the root entry is the page author\'s: at most 30 names, types included, no internals and no tool kit', () => {
  const names = exportedNames(sourceEntries());
  assert.ok(names['.'].length <= 30, `the root entry exports ${names['.'].length} names: ${names['.'].join(', ')}`);
  assert.deepEqual(names['.'].filter((name) => NOT_FOR_PAGES.includes(name)), []);
  for (const needed of ['provideOperations', 'configureAiOps', 'defineOperation', 'succeed', 'fail', 'ErrorCode', 'isFailure',
    'createStore', 'OperationDefinition', 'AnyOperationDefinition', 'OperationResult', 'AiOpsOptions', 'ToolSessionState']) {
    assert.ok(names['.'].includes(needed), `the root entry exports ${needed}`);
  }
  // Where the moved names are now.
  for (const name of ['MAX_SQL_ROWS', 'MAX_TEXT_BYTES', 'TIMEOUT_MS', 'textSchema', 'timeoutSchema', 'listFilesSchema', 'readFileSchema',
    'writeFileSchema', 'deleteFileSchema', 'resolveRelativePath', 'createFileOperations', 'createDocumentGuard', 'checkConformance',
    'assertConformance', 'toolConformanceOptions']) {
    assert.ok(names['./tools'].includes(name), `ai-ops/tools exports ${name}`);
  }
  for (const name of ['createToolSession', 'compileOperation', 'runCall', 'serialize', 'systemClock', 'isEmbedded', 'LogEntry', 'Clock']) {
    assert.ok(names['./internals'].includes(name), `ai-ops/internals exports ${name}`);
  }
  // The bundle for pages without a bundler offers the root's names unchanged.
  assert.deepEqual(names['.'].filter((name) => !names['./bundle'].includes(name)), []);
});

test('[PKG-3] exports has no wildcard, and ./call and ./conformance are folded into ai-ops/internals and ai-ops/tools', () => {
  assert.deepEqual(Object.keys(pkg.exports).filter((key) => key.includes('*')), []);
  const targets = Object.values(pkg.exports).flatMap((t) => (typeof t === 'string' ? [t] : Object.values(t)));
  assert.deepEqual(targets.filter((t) => t.includes('*')), []);
  assert.equal('./call' in pkg.exports, false);
  assert.equal('./conformance' in pkg.exports, false);
  // strings-store, panel-styles and format stay private.
  for (const name of ['strings-store', 'panel-styles', 'format', 'styles']) assert.equal(resolvesInExports(`ai-ops/elements/${name}.js`), false, name);
});

test('[PKG-3] a tool is its folder and one entry: tools/<tool>/ with operations.ts, adapter.ts and index.ts is exactly one ./tools/<tool> entry', async () => {
  const folders = await toolFolders();
  assert.deepEqual(folders, ['drawio', 'excalidraw', 'go', 'node', 'slides', 'sql']);
  const entries = Object.keys(pkg.exports).filter((key) => /^\.\/tools\/[^/]+$/.test(key)).map((key) => key.slice('./tools/'.length)).sort();
  assert.deepEqual(entries, folders, 'each tools/<tool>/ folder has its exports entry, and no entry lacks its folder');
  const names = exportedNames(sourceEntries());
  for (const tool of folders) {
    assert.ok(existsSync(join(root, 'tools', tool, 'adapter.ts')), `tools/${tool}/adapter.ts`);
    assert.equal(pkg.exports[`./tools/${tool}`].types, `./dist/lib/tools/${tool}/index.d.ts`);
    const title = tool[0].toUpperCase() + tool.slice(1);
    assert.ok(names[`./tools/${tool}`].includes(`create${title}Operations`), `ai-ops/tools/${tool} exports create${title}Operations`);
    assert.ok(names[`./tools/${tool}`].includes(`${title}ToolAdapter`), `ai-ops/tools/${tool} exports ${title}ToolAdapter`);
  }
  // ai-ops/tools is the kit, not a second list of the tools: it imports no tool's folder.
  const graph = await localImportGraph('tools/index.ts');
  assert.deepEqual(graph.filter((file) => folders.some((tool) => file.startsWith(`tools/${tool}/`))), []);
});

test('[PKG-3] the "Import paths" table (docs/pages.md) lists exactly the exports entries', async () => {
  const table = await readmeEntries();
  const exported = Object.keys(pkg.exports).map((key) => (key === '.' ? 'ai-ops' : `ai-ops/${key.slice(2)}`)).sort();
  assert.deepEqual({ missingFromReadme: exported.filter((s) => !table.includes(s)), notInExports: table.filter((s) => !exported.includes(s)) },
    { missingFromReadme: [], notInExports: [] });
});

test('[SHAPE-2] ai-ops/elements defines nothing: no module it imports defines a tag; define.ts is the one place', async () => {
  const graph = await localImportGraph('elements/index.ts');
  assert.ok(graph.includes('elements/log/ai-ops-log.ts'), 'the graph is read (it reaches the log\'s class)');
  assert.equal(graph.includes('elements/define.ts'), false, 'elements/index.ts does not import define.ts');
  const defining = [];
  for (const file of graph) {
    // Code only: a JSDoc example may show a definition.
    const code = (await readFile(join(root, file), 'utf8')).replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    if (/customElements\.define\(|registry\.define\(|\.define\(\s*['"]ai-ops-/.test(code)) defining.push(file);
  }
  assert.deepEqual(defining, []);
  // The check itself sees a definition where there is one.
  assert.match(await readFile(join(root, 'elements/define.ts'), 'utf8'), /registry\.define\(/);
});

test('[PKG-3] every import path the README, docs/ and the JSDoc examples use is in exports', async () => {
  const found = await documentedSpecifiers();
  for (const specifier of ['ai-ops', 'ai-ops/react', 'ai-ops/elements/define.js', 'ai-ops/tools', 'ai-ops/tools/slides', 'ai-ops/internals']) {
    assert.ok(found.has(specifier), `the docs use ${specifier} (the check reads them)`);
  }
  const missing = [...found].filter(([specifier]) => !resolvesInExports(specifier)).map(([s, file]) => `${s} (${file})`);
  assert.deepEqual(missing, []);
  assert.equal(resolvesInExports('ai-ops/not-there'), false);
});

test('[PKG-3] every name the README, docs/ and the JSDoc examples import from an ai-ops entry is exported by that entry', async () => {
  const names = exportedNames(sourceEntries());
  const imports = await documentedImports();
  assert.ok(imports.some((i) => i.file === 'README.md' && i.entry === '.'), 'the README\'s imports are read');
  assert.ok(imports.some((i) => i.entry === './bundle'), 'the plain page\'s imports from /ai-ops/ai-ops.js are read');
  const wrong = imports.flatMap(({ file, entry, names: used }) => used.filter((name) => !names[entry]?.includes(name)).map((name) => `${file}: ${name} from ${entry}`));
  assert.deepEqual(wrong, []);
});
