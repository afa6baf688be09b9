// FIRST-2: the switch's notice is readable wherever the switch sits. A person without a passkey
// (the page's virtual authenticator removed: the browser offers no user verification) clicks the
// switch on every playground page; the refusal notice must be what is drawn at its own centre
// (`elementFromPoint` there is the switch, inside it the notice: no canvas or overlay of the page over
// it), wholly inside the viewport, named by role="alert", in Japanese, and closable with the keyboard.
// On the plain sample page the switch is then moved to the left, the centre and the right of its
// header at 320, 800 and 1280 px.
// Build first: `node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, launchBrowser } from './harness.mjs';

/** Every playground page with a switch, and its tool. */
const PAGES = [
  ['/sql/?id=notice', 'sql'],
  ['/slides/', 'slides'],
  ['/excalidraw/', 'excalidraw'],
  ['/drawio/', 'drawio'],
  ['/node/?id=notice', 'node'],
  ['/go/?id=notice', 'go'],
  ['/sample/', 'sample'],
];

/** Where the sample page's header puts its switch (its own style puts it at the right). */
const POSITIONS = {
  left: 'header ai-ops-switch { order: -1; margin-inline-start: 0 } header h1 { margin-inline-start: auto }',
  centre: 'header ai-ops-switch { margin-inline: auto }',
  right: '',
};

let demo, browser;

before(async () => {
  demo = await startDemo();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

/**
 * Opens `path` at `width` px on a device without user verification, with `css` added, and clicks the
 * switch: the refusal notice appears.
 */
async function refusedNotice(path, tool, width, css = '') {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height: 720 });
  await (await browser.authenticatorOf(page)).remove();
  await page.goto(`${demo.origin}${path}`);
  if (css) await page.addStyleTag({ content: css });
  await page.locator(`ai-ops-switch[tool="${tool}"] input[role="switch"]`).click({ timeout: 60_000 });
  await page.locator(`ai-ops-switch[tool="${tool}"] [role="alert"]`).waitFor({ timeout: 30_000 });
  return page;
}

/** What is drawn at the notice's centre and corners, and where the notice lies in the viewport. */
function hitTest(page, tool) {
  return page.evaluate((tool) => {
    const host = document.querySelector(`ai-ops-switch[tool="${tool}"]`);
    const alert = host.shadowRoot.querySelector('[role="alert"]');
    const box = alert.getBoundingClientRect();
    const points = [[box.left + box.width / 2, box.top + box.height / 2], [box.left + 6, box.top + 6], [box.right - 6, box.bottom - 6]];
    const name = (element) => element ? `${element.localName}${element.className && typeof element.className === 'string' ? `.${element.className.trim().split(/\s+/).join('.')}` : ''}` : 'nothing';
    return {
      // document.elementFromPoint answers the shadow host for what is inside it.
      hits: points.map(([x, y]) => {
        const outer = document.elementFromPoint(x, y);
        return outer === host && alert.contains(host.shadowRoot.elementFromPoint(x, y)) ? 'notice' : name(outer === host ? host.shadowRoot.elementFromPoint(x, y) : outer);
      }),
      box: { left: box.left, top: box.top, right: box.right, bottom: box.bottom },
      viewport: { width: document.documentElement.clientWidth, height: document.documentElement.clientHeight },
      title: alert.querySelector('[part="alert-title"]')?.textContent,
      close: alert.querySelector('button')?.getAttribute('aria-label'),
    };
  }, tool);
}

/** Asserts the notice is what is drawn at its centre and corners, inside the viewport, in Japanese. */
function assertReadable(found, where) {
  assert.deepEqual(found.hits, ['notice', 'notice', 'notice'], `${where}: what is drawn at the notice's centre and corners`);
  const { box, viewport } = found;
  assert.ok(box.left >= 0 && box.right <= viewport.width && box.top >= 0 && box.bottom <= viewport.height,
    `${where}: the notice ${JSON.stringify(box)} lies inside the ${viewport.width}×${viewport.height} viewport`);
  assert.equal(found.title, 'AI からの操作を始められません', where);
  assert.equal(found.close, '閉じる', `${where}: its close button is named in the page's language`);
}

for (const [path, tool] of PAGES) {
  test(`[FIRST-2] ${path}: the switch's refusal notice is above everything on the page (elementFromPoint at its centre is the notice), inside the viewport, in Japanese`, { timeout: 120_000 }, async () => {
    const page = await refusedNotice(path, tool, 1280);
    try {
      assertReadable(await hitTest(page, tool), path);
    } finally {
      await page.close();
    }
  });
}

for (const [position, css] of Object.entries(POSITIONS)) {
  test(`[FIRST-2] a switch at the ${position} of a plain page: its notice is inside the viewport and on top at 320, 800 and 1280 px, and the keyboard closes it`, { timeout: 180_000 }, async () => {
    for (const width of [320, 800, 1280]) {
      const page = await refusedNotice('/sample/', 'sample', width, css);
      try {
        assertReadable(await hitTest(page, 'sample'), `${position}, ${width} px`);
        const notice = page.locator('ai-ops-switch[tool="sample"] [role="alert"]');
        if (width === 320) {
          // Tab from the switch reaches the ×; Enter closes the notice and the switch has the focus again.
          await page.locator('ai-ops-switch[tool="sample"] input[role="switch"]').focus();
          await page.keyboard.press('Tab');
          assert.equal(await page.evaluate(() => document.querySelector('ai-ops-switch').shadowRoot.activeElement?.getAttribute('aria-label')), '閉じる');
          await page.keyboard.press('Enter');
        } else {
          // Escape inside the notice closes it too.
          await notice.locator('button').focus();
          await page.keyboard.press('Escape');
        }
        await notice.waitFor({ state: 'detached', timeout: 10_000 });
        assert.equal(await page.evaluate(() => document.querySelector('ai-ops-switch').shadowRoot.activeElement?.getAttribute('role')), 'switch', `${position}, ${width} px: the focus is back on the switch`);
      } finally {
        await page.close();
      }
    }
  });
}
