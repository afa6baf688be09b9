/** The deck a first visit gets (`?doc=welcome`), and the start of a new one. */

/** `welcome`'s name. */
export const WELCOME_NAME = 'ようこそ';

/** `welcome`'s Markdown: three slides. */
export const WELCOME_MARKDOWN = `---
theme: default
paginate: true
---

# スライドのエディタ

Marp の Markdown で書くと、右にスライドが出ます :sparkles:

---

## 書き方

- \`---\` の行で、スライドを分けます
- 上のバーの「テーマ」で、見た目を変えます
- ヘッダの「AI からの操作」をオンにすると、AI のエージェントも読み書きできます

---

## おわり

「直前の変更を取り消す」で、あなたや AI の直前の変更を取り消せます。記録の「元に戻す」は、AI の操作をひとつ選んで戻します。
`;

/** A new deck's Markdown. */
export function newDeckMarkdown(name: string): string {
  return `---\ntheme: default\n---\n\n# ${name}\n`;
}
