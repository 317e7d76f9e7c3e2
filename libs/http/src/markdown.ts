// Kept out of the library's index: markdown-it is loaded only by the services that render Markdown.
import MarkdownIt from 'markdown-it';

// Raw HTML in the source is escaped, not passed through, so the output is safe to embed.
const markdown = new MarkdownIt({ html: false, linkify: true });

/** GitLab's `*_html` fields: Markdown rendered to HTML without a trailing newline. */
export function renderMarkdown(source: string): string {
  return source ? markdown.render(source).trimEnd() : '';
}
