import { describe, expect, it } from '@jest/globals';
import { labelColorOf, textColorOf } from './label-color.ts';

describe('label colors', () => {
  it('keeps hex codes and turns CSS color names into #RRGGBB, as GitLab stores them', () => {
    expect(labelColorOf('#FF0000')).toBe('#FF0000');
    expect(labelColorOf('#abc')).toBe('#abc');
    expect(labelColorOf(' red ')).toBe('#FF0000');
    expect(labelColorOf('CornflowerBlue')).toBe('#6495ED');
  });

  it('refuses anything else', () => {
    for (const invalid of ['FF0000', '#GG0000', '#12345', 'reddish', '', 'constructor', '#1234567']) {
      expect(labelColorOf(invalid)).toBeUndefined();
    }
  });

  it('draws dark text on light labels and white text on dark ones', () => {
    expect(textColorOf('#FFFFFF')).toBe('#1F1E24');
    expect(textColorOf('#ff6')).toBe('#1F1E24');
    expect(textColorOf('#6699cc')).toBe('#FFFFFF');
    expect(textColorOf('#000')).toBe('#FFFFFF');
  });
});
