import type { Page } from 'playwright-core';
// Types of chromium.mjs for the TypeScript tests (the project does not type-check .mjs files).
export declare const CHROMIUM_ARGS: string[];
export declare function chromiumLaunchOptions(...extraArgs: string[]): { executablePath: string; args: string[] };
export declare function accessibleNodes(
  page: Page,
  roles: string[],
): Promise<{ role: string; name: string; invalid: boolean }[]>;
