import { CST, Lexer } from 'yaml';

/**
 * Bounds on what `check-iac` reads, checked before anything is materialised: Terraform plans and
 * Kubernetes manifests are documents of a few MB nested a dozen levels deep, but the parsers
 * that turn them into objects cost far more than the text (the yaml package holds ~40 bytes per
 * byte of a kubectl-style manifest: 10 MB of PVCs took 418 MB; a 25 MB one-line flow sequence
 * took over 4.5 GB and crashed) and recurse once per level (yaml 2.9's composer, Zod and the
 * readers of shared/src/iac overflow Node's default stack a few hundred to a thousand levels
 * down). docs/iac.md lists the limits.
 */
export const IAC_INPUT_LIMITS = {
  /** YAML larger than this is refused before it is lexed (JSON keeps the 50 MiB input limit). */
  yamlBytes: 8 * 1024 * 1024,
  /** Scalars, aliases and flow collections of a YAML file (10 MB of real manifests: ~920,000). */
  yamlNodes: 1_000_000,
  /** Alias references (`*name`); their expansion is bounded again when the objects are built. */
  yamlAliases: 10_000,
  /** Nesting levels of a JSON or YAML document (real ones: under 30). */
  depth: 256,
} as const;

export type InputLimits = typeof IAC_INPUT_LIMITS;

/** A document refused by its size or shape, with the stable code the CLI prints. */
export type InputBound = { code: 'input_too_large' | 'input_too_deep'; message: string };

const tooDeep = (limit: number, where: string): InputBound => ({
  code: 'input_too_deep',
  message: `nested deeper than ${limit} levels (${where}); real plans and manifests nest a few dozen at most`,
});

/**
 * The first place a JSON text nests deeper than `maxDepth`, or null. A scan of brackets outside
 * strings: no object is built, and it stops at the first level too deep.
 */
export function jsonTooDeep(text: string, maxDepth: number): InputBound | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return tooDeep(maxDepth, `at character ${i + 1}`);
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return null;
}

export type YamlScan =
  | { ok: true; nodes: number; aliases: number; maxDepth: number }
  | {
      ok: false;
      bound: InputBound;
      nodes: number;
      /** Characters of the text lexed before it stopped. */ bytesScanned: number;
    };

/**
 * Checks a YAML text against the limits with the yaml package's own lexer, which yields one
 * token at a time and builds nothing: its size first, then its node and alias counts and its
 * nesting depth, stopping at the first one past its limit (so a hostile file costs at most the
 * tokens up to that point). Depth is counted as the parser nests: flow brackets, plus the block
 * indentation levels open on the line, plus the block indicators (`- - a`, `? `, `key: value`)
 * on it — at least the real depth, so the limit holds.
 */
export function scanYaml(text: string, limits: InputLimits = IAC_INPUT_LIMITS): YamlScan {
  const bytes = Buffer.byteLength(text);
  if (bytes > limits.yamlBytes)
    return {
      ok: false,
      bound: {
        code: 'input_too_large',
        message: `${bytes} bytes of YAML, over the ${limits.yamlBytes}-byte limit for manifests (split the file, or give \`terraform show -json\` output)`,
      },
      nodes: 0,
      bytesScanned: 0,
    };
  let nodes = 0;
  let aliases = 0;
  let maxDepth = 0;
  let line = 1;
  let flow = 0;
  let onLine = 0; // compact indicators on the current line
  let lineStart = true;
  let indent = 0;
  let placed = false; // whether the line's indentation was applied to the stack
  const indents: number[] = [];
  let scanned = 0;
  const stop = (bound: InputBound): YamlScan => ({ ok: false, bound, nodes, bytesScanned: scanned });
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    // The lexer's one-character markers (before a scalar, a document…) are not in the text.
    if (!(token.length === 1 && token < ' ' && type !== 'newline' && type !== 'space'))
      scanned += token.length;
    if (type === 'newline') {
      line++;
      onLine = 0;
      lineStart = true;
      indent = 0;
      placed = false;
      continue;
    }
    if (type === 'space') {
      if (lineStart) indent = token.length;
      lineStart = false;
      continue;
    }
    lineStart = false;
    // Comments and the lexer's mode markers say nothing of the nesting.
    if (type === 'comment' || type === 'doc-mode' || type === null) continue;
    if (type === 'doc-start' || type === 'doc-end') {
      indents.length = 0;
      flow = 0;
    }
    if (!placed && flow === 0) {
      while (indents.length > 0 && indents.at(-1)! >= indent) indents.pop();
      indents.push(indent);
    }
    placed = true;
    if (type === 'scalar' || type === 'alias' || type === 'flow-map-start' || type === 'flow-seq-start')
      if (++nodes > limits.yamlNodes)
        return stop({
          code: 'input_too_large',
          message: `more than ${limits.yamlNodes} YAML nodes (line ${line}); real manifests of this size hold far fewer`,
        });
    if (type === 'alias' && ++aliases > limits.yamlAliases)
      return stop({
        code: 'input_too_large',
        message: `more than ${limits.yamlAliases} YAML aliases (line ${line})`,
      });
    if (type === 'flow-map-start' || type === 'flow-seq-start') flow++;
    else if (type === 'flow-map-end' || type === 'flow-seq-end') flow = Math.max(0, flow - 1);
    else if (
      flow === 0 &&
      (type === 'seq-item-ind' || type === 'explicit-key-ind' || type === 'map-value-ind')
    )
      onLine++;
    const depth = indents.length + onLine + flow;
    if (depth > maxDepth) {
      maxDepth = depth;
      if (depth > limits.depth) return stop(tooDeep(limits.depth, `line ${line}`));
    }
  }
  return { ok: true, nodes, aliases, maxDepth };
}

/**
 * Whether `error` is V8's stack overflow: a document nested past what a recursive reader can hold.
 * Thrown (a RangeError) or reported by the yaml parser among a document's errors (a YAMLParseError
 * whose message starts with V8's).
 */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('Maximum call stack size exceeded');
}
