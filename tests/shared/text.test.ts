import { describe, expect, it } from 'vitest';
import { decodeEntities, htmlToText } from '../../src/shared/schedule/text.ts';

describe('htmlToText', () => {
  it.each([
    ['', ''],
    ['plain', 'plain'],
    ['<p>One</p><p>Two</p>', 'One\n\nTwo'],
    ['a<br>b<br/>c', 'a\nb\nc'],
    ['<ul><li>x</li><li>y</li></ul>', '• x\n• y'],
    ['<h2>Title</h2>\n  <p>Some   <em>spaced</em>\n text</p>', 'Title\n\nSome spaced text'],
    ['<p>A &amp; B &lt;tag&gt; &quot;q&quot; &#39;s&#x27; &nbsp;x</p>', 'A & B <tag> "q" \'s\' x'],
    ['<script>alert(1)</script><style>p{}</style>ok', 'ok'],
    ['<!-- note -->visible', 'visible'],
    ['<dl><dt>Q?</dt><dd>A.</dd></dl>', 'Q?\nA.'],
    ['<p></p><p></p><p>x</p>', 'x'],
  ])('%j', (html, text) => {
    expect(htmlToText(html)).toBe(text);
  });

  it('decodes numeric entities safely', () => {
    expect(decodeEntities('&#233;&#x1F600;&#0;&#xD800;&#99999999;&bogus;')).toBe('é😀&#0;&#xD800;&#99999999;&bogus;');
  });
});
