/** What the build reads, relative to the project's root (folders whole; `*` in a file name). */
export const BUILD_INPUTS: string[];
export const BUILD_COMMAND: string;
/** The stamp a finished build writes, relative to the root. */
export const STAMP: string;
/** What a finished build leaves, relative to the root. */
export const BUILD_OUTPUTS: string[];

export interface InputHashes {
  /** Of them all: paths and contents. */
  hash: string;
  /** Each file's SHA-256, by POSIX path relative to the root. */
  files: Record<string, string>;
}

export function hashBuildInputs(root: string, inputs?: string[]): Promise<InputHashes>;
export function buildDecision(root: string, current: InputHashes): Promise<{ build: false } | { build: true; reason: string }>;
export function writeStamp(root: string, current: InputHashes): Promise<void>;
/** Builds when needed (`always`: whatever the stamp says), then stamps; resolves to an exit code. */
export function buildIfChanged(options?: { root?: string; always?: boolean; command?: string }): Promise<number>;
