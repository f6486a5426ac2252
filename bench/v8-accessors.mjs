// bench/v8-accessors.mjs — why a cold render's objects all reach V8's old generation (issue 12, cold
// hotsite; docs/site.md "Where a cold render's CPU goes"). Each pattern below makes 200,000 "requests":
// a graph of 50 small objects (a request's state) and one object that refers to it the way Astro's
// per-request objects do. Nothing keeps a request after the next one starts, so a scavenge should find
// nothing alive and move nothing to the old generation. Printed per request: the bytes scavenges moved
// to the old generation (V8 --trace-gc-nvp `promoted`) and the main-thread scavenge pause.
// Accessors made per object (an object literal's `get x()` or Object.defineProperty with a new getter)
// and objects made per request that become prototypes (Object.create(state)) keep the whole graph
// through every scavenge until the next mark-compact; a class's getters (on its prototype) and data
// properties do not. A new closure kept on a new object keeps a little here (in Astro's slot wrapper,
// where its context holds the whole render, taking it away was what removed the last of it); a bound
// function keeps nothing. Astro 7's FetchState, API context, Astro global, slots and component
// instances make such objects for each request.
// Usage: node bench/v8-accessors.mjs
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REQUESTS = 200_000;

class StateView {
  #state;
  constructor(state) {
    this.#state = state;
  }
  get locals() {
    return this.#state.locals;
  }
}

const localsOf = (state) => state.locals;

/** One request's answer object by each pattern, over its state. */
const patterns = {
  'data property (baseline)': (state) => ({ status: 200, state }),
  'class getter (prototype)': (state) => new StateView(state),
  'object literal getter': (state) => ({
    status: 200,
    get locals() {
      return state.locals;
    },
  }),
  'Object.defineProperty getter': (state) =>
    Object.defineProperty({ status: 200 }, 'locals', { get: () => state.locals, enumerable: true }),
  'Object.create(state)': (state) => Object.assign(Object.create(state), { status: 200 }),
  'closure kept on a new object': (state) => {
    const slots = {};
    slots.default = () => state.locals;
    return { status: 200, slots };
  },
  'bound function kept instead': (state) => {
    const slots = {};
    slots.default = localsOf.bind(null, state);
    return { status: 200, slots };
  },
};

const mode = process.argv[2];
if (mode !== undefined) {
  const make = patterns[mode];
  let last;
  for (let i = 0; i < REQUESTS; i++) {
    const state = { locals: {}, parts: Array.from({ length: 50 }, (_, j) => ({ j })) };
    last = make(state);
  }
  if (last === undefined) process.exit(1);
} else {
  console.log(`pattern                          promoted/request  scavenge pause/request`);
  for (const name of Object.keys(patterns)) {
    const out = execFileSync(process.execPath, ['--trace-gc-nvp', fileURLToPath(import.meta.url), name], {
      encoding: 'utf8',
    });
    let promoted = 0;
    let pause = 0;
    for (const line of out.split('\n')) {
      if (!/ gc=s /.test(line)) continue;
      promoted += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
      pause += Number(/ pause=([\d.]+)/.exec(line)?.[1] ?? 0);
    }
    const kb = (promoted / 1024 / REQUESTS).toFixed(2);
    const us = ((pause * 1000) / REQUESTS).toFixed(2);
    console.log(`${name.padEnd(32)} ${kb.padStart(9)} KB ${us.padStart(16)} µs`);
  }
}
