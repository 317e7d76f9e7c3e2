/** `color-name` ships no types: CSS color keywords to their red, green and blue. */
declare module 'color-name' {
  const colors: Record<string, [number, number, number]>;
  export default colors;
}
