// JSON.parse with an error that says where: V8's messages give a character offset only sometimes, so on failure
// a small scanner finds the first syntax error and reports it as line and column.
import { SidecarFormatError } from './format-error.js';

export function parseJsonText(withBom: string): unknown {
  const text = withBom.replace(/^\uFEFF/, '');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const found = findSyntaxError(text);
    if (!found) throw new SidecarFormatError(`invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
    const { line, column } = lineAndColumn(text, found.offset);
    throw new SidecarFormatError(`invalid JSON: ${found.problem}`, { line, column });
  }
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

interface SyntaxProblem {
  offset: number;
  problem: string;
}

class Stop {
  constructor(public readonly found: SyntaxProblem) {}
}

/** The first JSON syntax error in `text`, or null when it is valid (or nested too deeply to scan). */
export function findSyntaxError(text: string): SyntaxProblem | null {
  let i = 0;
  function stop(problem: string, offset = i): never {
    throw new Stop({ offset, problem });
  }
  const describeHere = (): string => (i >= text.length ? 'end of input' : JSON.stringify(text[i]));
  const skipWhitespace = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };

  const value = (): void => {
    skipWhitespace();
    const char = text[i];
    if (char === '{') return object();
    if (char === '[') return array();
    if (char === '"') return string();
    if (char === '-' || (char >= '0' && char <= '9')) return number();
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return;
      }
    }
    stop(`unexpected ${describeHere()}, expected a value`);
  };

  const object = (): void => {
    i++;
    skipWhitespace();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (let afterComma = false; ; afterComma = true) {
      skipWhitespace();
      if (afterComma && text[i] === '}') stop('unexpected "}", trailing commas are not allowed');
      if (text[i] !== '"') stop(`unexpected ${describeHere()}, expected a double-quoted property name`);
      string();
      skipWhitespace();
      if (text[i] !== ':') stop(`unexpected ${describeHere()}, expected ':' after the property name`);
      i++;
      value();
      skipWhitespace();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return;
      }
      stop(`unexpected ${describeHere()}, expected ',' or '}' after a property value`);
    }
  };

  const array = (): void => {
    i++;
    skipWhitespace();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      value();
      skipWhitespace();
      if (text[i] === ',') {
        i++;
        skipWhitespace();
        if (text[i] === ']') stop('unexpected "]", trailing commas are not allowed');
        continue;
      }
      if (text[i] === ']') {
        i++;
        return;
      }
      stop(`unexpected ${describeHere()}, expected ',' or ']' after an array element`);
    }
  };

  const string = (): void => {
    const start = i;
    i++;
    for (;;) {
      if (i >= text.length) stop('unterminated string', start);
      const code = text.charCodeAt(i);
      if (code === 34) {
        i++;
        return;
      }
      if (code < 0x20) stop('control character in a string (escape line breaks as \\n)');
      if (code === 92) {
        const escape = text[i + 1];
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) stop('invalid \\u escape in a string');
          i += 6;
        } else if (escape !== undefined && '"\\/bfnrt'.includes(escape)) i += 2;
        else stop('invalid escape in a string');
      } else i++;
    }
  };

  const number = (): void => {
    const pattern = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    pattern.lastIndex = i;
    const match = pattern.exec(text);
    if (!match) stop('invalid number');
    i += match[0].length;
  };

  try {
    value();
    skipWhitespace();
    if (i < text.length) stop(`unexpected ${describeHere()} after the end of the JSON value`);
    return null;
  } catch (error) {
    if (error instanceof Stop) return error.found;
    if (error instanceof RangeError) return null; // nesting deeper than the stack: report without a location
    throw error;
  }
}
