import colors from 'color-name';

/** `#RGB` or `#RRGGBB`, as GitLab's `Gitlab::Color` accepts. */
const HEX_COLOR = /^#(?:[0-9A-Fa-f]{3}){1,2}$/;

const hex = (channel: number) => channel.toString(16).padStart(2, '0').toUpperCase();

/**
 * A label color as GitLab stores it: a CSS color name becomes its `#RRGGBB`, a hex code stays as
 * given; undefined when it is neither ("must be a valid color code").
 */
export function labelColorOf(given: string): string | undefined {
  const color = given.trim();
  const named = Object.hasOwn(colors, color.toLowerCase()) ? colors[color.toLowerCase()] : undefined;
  if (named) return `#${named.map(hex).join('')}`;
  return HEX_COLOR.test(color) ? color : undefined;
}

/** The text color GitLab draws on a label: dark on light colors (channels summing over 500), white otherwise. */
export function textColorOf(color: string): string {
  const digits = color.slice(1);
  const full = digits.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits;
  const sum = [0, 2, 4].reduce((total, at) => total + Number.parseInt(full.slice(at, at + 2), 16), 0);
  return sum > 500 ? '#1F1E24' : '#FFFFFF';
}
