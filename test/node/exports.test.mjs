// PKG-3: the package's public surface is a visible decision. The names every `exports` entry
// offers are pinned below (one sorted list of "<entry> <name>"); a change to the surface fails here
// with the lines added (+) and removed (-). To accept a change, print the new list and paste it:
//   node test/node/exports.test.mjs --print
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exportedNames, pkg, resolvesInExports, root, sourceEntries } from './exports.lib.mjs';

const PINNED = [
  '. AiOps',
  '. AiOpsOptions',
  '. AnyOperationDefinition',
  '. Clock',
  '. ConfirmationContent',
  '. ConfirmationQueue',
  '. ConfirmationRequest',
  '. ConfirmationState',
  '. ErrorCode',
  '. FileEntry',
  '. InputOf',
  '. InputSchema',
  '. LogEntry',
  '. LogStatus',
  '. MAX_LIST_ENTRIES',
  '. MAX_OUTPUT_CHARS',
  '. MAX_SQL_ROWS',
  '. MAX_TEXT_BYTES',
  '. OperationAnnotations',
  '. OperationDefinition',
  '. OperationFailure',
  '. OperationLog',
  '. OperationResult',
  '. OperationSuccess',
  '. ReadableStore',
  '. RelayConnector',
  '. RelayOptions',
  '. SessionStatus',
  '. TIMEOUT_MS',
  '. ToolSession',
  '. ToolSessionState',
  '. WritableStore',
  '. configureAiOps',
  '. createAiOps',
  '. createStore',
  '. defineOperation',
  '. deleteFileSchema',
  '. describeError',
  '. fail',
  '. getAiOps',
  '. head',
  '. isEmbedded',
  '. isFailure',
  '. isSuccess',
  '. listFilesSchema',
  '. provideOperations',
  '. readFileSchema',
  '. resolveRelativePath',
  '. stripTerminalControls',
  '. succeed',
  '. tail',
  '. textSchema',
  '. timeoutSchema',
  '. utf8ByteLength',
  '. writeFileSchema',
  './bundle AiOps',
  './bundle AiOpsOptions',
  './bundle AiOpsStrings',
  './bundle AiOpsSwitch',
  './bundle AnyOperationDefinition',
  './bundle Clock',
  './bundle ConfirmationContent',
  './bundle ConfirmationQueue',
  './bundle ConfirmationRequest',
  './bundle ConfirmationState',
  './bundle ErrorCode',
  './bundle FileEntry',
  './bundle InputOf',
  './bundle InputSchema',
  './bundle LogEntry',
  './bundle LogStatus',
  './bundle MAX_LIST_ENTRIES',
  './bundle MAX_OUTPUT_CHARS',
  './bundle MAX_SQL_ROWS',
  './bundle MAX_TEXT_BYTES',
  './bundle OperationAnnotations',
  './bundle OperationDefinition',
  './bundle OperationFailure',
  './bundle OperationLog',
  './bundle OperationResult',
  './bundle OperationSuccess',
  './bundle ReadableStore',
  './bundle RelayConnector',
  './bundle RelayOptions',
  './bundle SessionStatus',
  './bundle TIMEOUT_MS',
  './bundle ToolSession',
  './bundle ToolSessionState',
  './bundle WritableStore',
  './bundle aiOpsContext',
  './bundle configureAiOps',
  './bundle createAiOps',
  './bundle createStore',
  './bundle defaultAiOpsStrings',
  './bundle defineAiOpsElements',
  './bundle defineOperation',
  './bundle deleteFileSchema',
  './bundle describeError',
  './bundle fail',
  './bundle getAiOps',
  './bundle head',
  './bundle isEmbedded',
  './bundle isFailure',
  './bundle isSuccess',
  './bundle listFilesSchema',
  './bundle loadAiOpsElements',
  './bundle provideOperations',
  './bundle readFileSchema',
  './bundle resolveRelativePath',
  './bundle setAiOpsStrings',
  './bundle stripTerminalControls',
  './bundle succeed',
  './bundle tail',
  './bundle textSchema',
  './bundle timeoutSchema',
  './bundle utf8ByteLength',
  './bundle writeFileSchema',
  './call CallHooks',
  './call CallOutcome',
  './call CompiledOperation',
  './call compileOperation',
  './call runCall',
  './conformance ConformanceCase',
  './conformance ConformanceError',
  './conformance ConformanceExpectation',
  './conformance ConformanceOptions',
  './conformance ConformanceProblem',
  './conformance ConformanceReport',
  './conformance assertConformance',
  './conformance checkConformance',
  './conformance conformanceCases',
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
  './elements CutText',
  './elements DETAIL_CHARS',
  './elements SUMMARY_CHARS',
  './elements StoreController',
  './elements aiOpsContext',
  './elements aiOpsElements',
  './elements aiOpsStringsEn',
  './elements aiOpsStringsStore',
  './elements aiOpsTagNames',
  './elements cutText',
  './elements defaultAiOpsStrings',
  './elements defineAiOpsElements',
  './elements fillString',
  './elements formatInline',
  './elements formatTime',
  './elements formatValue',
  './elements loadAiOpsElements',
  './elements resolveAiOpsStrings',
  './elements setAiOpsStrings',
  './elements summarizeArgs',
  './elements summarizeResult',
  './internals CONFIRMATION_DEADLINE_MS',
  './internals CallHooks',
  './internals CallOutcome',
  './internals CallToolResult',
  './internals CompiledOperation',
  './internals ConfirmationAnswer',
  './internals LOG_LIMIT',
  './internals ModelContextLike',
  './internals ModelContextTool',
  './internals PERMISSION_TTL_MS',
  './internals PermissionState',
  './internals PermissionStore',
  './internals ScriptLoader',
  './internals StoredPermission',
  './internals createConfirmationQueue',
  './internals createDomScriptLoader',
  './internals createOperationLog',
  './internals createPermissionStore',
  './internals createRelayConnector',
  './internals createToolSession',
  './internals installToolsChangedShim',
  './internals isValidName',
  './internals parseStoredPermission',
  './internals permissionKey',
  './internals serialize',
  './internals statusOf',
  './internals systemClock',
  './internals toCallToolResult',
  './react AiOpsConfirm',
  './react AiOpsLog',
  './react AiOpsSwitch',
  './react useAiOpsStore',
  './tools BACKGROUND_COLOR_PATTERN',
  './tools COLOR_PATTERN',
  './tools DrawioToolAdapter',
  './tools ElementPatch',
  './tools ElementToAdd',
  './tools ExcalidrawElementLike',
  './tools ExcalidrawOperationsOptions',
  './tools ExcalidrawToolAdapter',
  './tools GoFileEntry',
  './tools GoFilesModule',
  './tools GoRunMode',
  './tools GoRunOutcome',
  './tools GoRunnerStatus',
  './tools GoToolAdapter',
  './tools MAX_NEW_ELEMENTS',
  './tools NewElementType',
  './tools NodeChangeResult',
  './tools NodeExcludeRules',
  './tools NodeFileErrorCode',
  './tools NodeFileFailure',
  './tools NodeOperationsOptions',
  './tools NodeProcessLike',
  './tools NodeReadResult',
  './tools NodeRuntimeLike',
  './tools NodeToolAdapter',
  './tools NodeTreeEntry',
  './tools NodeTreeStore',
  './tools OpenDocument',
  './tools RELAY_WAIT_NOTE',
  './tools SlidesSetThemeSchema',
  './tools SlidesToolAdapter',
  './tools SqlEngineStatus',
  './tools SqlErrorLike',
  './tools SqlFieldLike',
  './tools SqlRunOutcome',
  './tools SqlStatementResultLike',
  './tools SqlToolAdapter',
  './tools addCellsSchema',
  './tools addElementsSchema',
  './tools createDrawioOperations',
  './tools createExcalidrawOperations',
  './tools createExcludeMatcher',
  './tools createGoOperations',
  './tools createNodeOperations',
  './tools createSlidesOperations',
  './tools createSqlOperations',
  './tools drawioInputSchemas',
  './tools drawioReadSchema',
  './tools drawioWriteSchema',
  './tools excalidrawEmptySchema',
  './tools excalidrawInputSchemas',
  './tools goInputSchemas',
  './tools goRunSchema',
  './tools newElementSchema',
  './tools nodeInputSchemas',
  './tools readQuerySchema',
  './tools runCommandSchema',
  './tools runQuerySchema',
  './tools slidesReadSchema',
  './tools slidesWriteSchema',
  './tools sqlInputSchemas',
  './tools toolConformanceOptions',
  './tools updateElementSchema',
  './tools/drawio DrawioToolAdapter',
  './tools/drawio addCellsSchema',
  './tools/drawio createDrawioOperations',
  './tools/drawio drawioInputSchemas',
  './tools/drawio drawioReadSchema',
  './tools/drawio drawioWriteSchema',
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
  './tools/excalidraw excalidrawEmptySchema',
  './tools/excalidraw excalidrawInputSchemas',
  './tools/excalidraw newElementSchema',
  './tools/excalidraw updateElementSchema',
  './tools/go GoFileEntry',
  './tools/go GoFilesModule',
  './tools/go GoRunMode',
  './tools/go GoRunOutcome',
  './tools/go GoRunnerStatus',
  './tools/go GoToolAdapter',
  './tools/go createGoOperations',
  './tools/go goInputSchemas',
  './tools/go goRunSchema',
  './tools/node NodeChangeResult',
  './tools/node NodeExcludeRules',
  './tools/node NodeFileErrorCode',
  './tools/node NodeFileFailure',
  './tools/node NodeOperationsOptions',
  './tools/node NodeProcessLike',
  './tools/node NodeReadResult',
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
  './tools/slides slidesReadSchema',
  './tools/slides slidesWriteSchema',
  './tools/sql SqlEngineStatus',
  './tools/sql SqlErrorLike',
  './tools/sql SqlFieldLike',
  './tools/sql SqlRunOutcome',
  './tools/sql SqlStatementResultLike',
  './tools/sql SqlToolAdapter',
  './tools/sql createSqlOperations',
  './tools/sql readQuerySchema',
  './tools/sql runQuerySchema',
  './tools/sql sqlInputSchemas',
];

/** What a page never needs from the root entry: the runtime's building blocks (ai-ops/internals). */
const INTERNALS = [
  'createToolSession', 'installToolsChangedShim', 'parseStoredPermission', 'createPermissionStore',
  'createConfirmationQueue', 'createOperationLog', 'createRelayConnector', 'createDomScriptLoader',
  'toCallToolResult', 'serialize', 'isValidName', 'permissionKey', 'statusOf', 'systemClock', 'ToolName',
];

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

test('[PKG-3] the root entry exports no internals; they are under ai-ops/internals', () => {
  const names = exportedNames({ '.': sourceEntries()['.'], './internals': sourceEntries()['./internals'] });
  assert.deepEqual(names['.'].filter((name) => INTERNALS.includes(name)), []);
  assert.deepEqual(INTERNALS.filter((name) => name !== 'ToolName' && !names['./internals'].includes(name)), []);
  for (const needed of ['provideOperations', 'configureAiOps', 'defineOperation', 'succeed', 'fail', 'ErrorCode', 'isFailure',
    'MAX_TEXT_BYTES', 'TIMEOUT_MS', 'textSchema', 'readFileSchema', 'writeFileSchema', 'OperationDefinition', 'OperationResult']) {
    assert.ok(names['.'].includes(needed), `the root entry exports ${needed}`);
  }
});

test('[PKG-3] each ./tools/<tool> entry exports its factory and its adapter type', () => {
  const names = exportedNames(sourceEntries());
  const tools = Object.keys(pkg.exports).filter((key) => /^\.\/tools\/[a-z]+$/.test(key));
  assert.deepEqual(tools.map((key) => key.slice('./tools/'.length)).sort(), ['drawio', 'excalidraw', 'go', 'node', 'slides', 'sql']);
  for (const key of tools) {
    const tool = key.slice('./tools/'.length);
    const title = tool[0].toUpperCase() + tool.slice(1);
    assert.ok(names[key].includes(`create${title}Operations`), `${key} exports create${title}Operations`);
    assert.ok(names[key].includes(`${title}ToolAdapter`), `${key} exports ${title}ToolAdapter`);
  }
});

/** Files whose text documents import paths: the README and every source file's JSDoc. */
async function documentedSpecifiers() {
  const files = ['README.md'];
  const walk = async (dir) => {
    for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (/\.(ts|tsx)$/.test(entry.name)) files.push(path);
    }
  };
  for (const dir of ['src', 'elements', 'tools']) await walk(dir);
  const found = new Map();
  for (const file of files) {
    const text = await readFile(join(root, file), 'utf8');
    for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*['"](ai-ops(?:\/[^'"\s]*)?)['"]/g)) {
      if (!found.has(specifier)) found.set(specifier, file);
    }
  }
  return found;
}

test('[PKG-3] every import path the README and the JSDoc examples use is in exports', async () => {
  const found = await documentedSpecifiers();
  for (const specifier of ['ai-ops', 'ai-ops/react', 'ai-ops/elements/define.js', 'ai-ops/elements/strings-en.js', 'ai-ops/tools']) {
    assert.ok(found.has(specifier), `the docs use ${specifier} (the check reads them)`);
  }
  const missing = [...found].filter(([specifier]) => !resolvesInExports(specifier)).map(([s, file]) => `${s} (${file})`);
  assert.deepEqual(missing, []);
  assert.equal(resolvesInExports('ai-ops/not-there'), false);
});
