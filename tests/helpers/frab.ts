// Validation against the published conference-schedule schemas (the C3VOC validator's XSD and JSON
// Schema, vendored in tests/fixtures/frab/), with pure-JS/WASM tools: xmllint compiled to WebAssembly
// (what validate_schedule_xml.sh runs natively) and Ajv (what check-jsonschema does in Python).
import { readFileSync } from 'node:fs';
import { validateXML } from 'xmllint-wasm';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

const dir = new URL('../fixtures/frab/', import.meta.url);
const XSD = readFileSync(new URL('schedule.xml.xsd', dir), 'utf8');
const SCHEMA = JSON.parse(readFileSync(new URL('schema.json', dir), 'utf8')) as object;

/** The XSD's errors for `xml` (none: valid). */
export async function xsdErrors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'schedule.xml', contents: xml }],
    schema: [{ fileName: 'schedule.xml.xsd', contents: XSD }],
  });
  return result.errors.map((e) => e.rawMessage);
}

// Draft-06 keywords and annotations the schema uses that Ajv's strict mode would refuse ($oneOf,
// $todo, deprecated) are left alone (strict off); every format it names is checked, `color` as the
// hex colour both schemas mean.
const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
// ajv-formats is CommonJS: Node's ESM import gives its exports object, whose `default` is the plugin.
addFormats.default(ajv);
ajv.addFormat('color', /^#[0-9a-fA-F]{6}$/);
const validate = ajv.compile(SCHEMA);

/** The JSON Schema's errors for `value` (none: valid). */
export function jsonSchemaErrors(value: unknown): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
