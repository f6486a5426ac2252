// Types of chromium.mjs for the TypeScript tests (the project does not type-check .mjs files).
export declare const CHROMIUM_ARGS: string[];
export declare function chromiumLaunchOptions(...extraArgs: string[]): { executablePath: string; args: string[] };
