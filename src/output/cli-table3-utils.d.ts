// cli-table3's own measure of text (wide characters, escape codes), used so that the streaming renderer
// cuts and pads exactly as cli-table3 does. The package ships no types for this file.
declare module 'cli-table3/src/utils.js' {
  const utils: {
    strlen(text: string): number;
    truncate(text: string, width: number, mark: string): string;
  };
  export default utils;
}
