// The DAP JSON schema for every event and response, generated from the TypeScript
// declarations Microsoft publishes in @vscode/debugprotocol (no npm package ships
// debugAdapterProtocol.json itself). Generated once per package version by
// ts-json-schema-generator and cached under node_modules/.cache; ajv compiles it.
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGenerator } from 'ts-json-schema-generator';
import Ajv from 'ajv';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const protocolPackage = require.resolve('@vscode/debugprotocol/package.json');
const declarations = join(dirname(protocolPackage), 'lib', 'debugProtocol.d.ts');
const version = JSON.parse(readFileSync(protocolPackage, 'utf8')).version;
const cacheFile = join(here, '..', 'node_modules', '.cache', 'pyinspect-dap-schema', `debugprotocol-${version}.json`);

/** Every `interface XEvent` / `interface XResponse` the protocol declares. */
function messageTypes() {
  const text = readFileSync(declarations, 'utf8');
  return [...text.matchAll(/^\s*interface (\w+(?:Event|Response)) extends/gm)].map(m => m[1]);
}

function generate() {
  const generator = createGenerator({
    path: declarations, skipTypeCheck: true, expose: 'all', topRef: false, additionalProperties: true,
  });
  const schemas = {};
  for (const type of messageTypes()) schemas[type] = generator.createSchema(`DebugProtocol.${type}`);
  return { source: `@vscode/debugprotocol ${version} (MIT, Microsoft), lib/debugProtocol.d.ts`, schemas };
}

function loadSchemas() {
  if (existsSync(cacheFile)) return JSON.parse(readFileSync(cacheFile, 'utf8'));
  const generated = generate();
  mkdirSync(dirname(cacheFile), { recursive: true });
  writeFileSync(cacheFile, JSON.stringify(generated));
  return generated;
}

const capitalized = name => name.charAt(0).toUpperCase() + name.slice(1);

/** A validator for adapter messages: returns null when valid, else a readable error. */
export function dapValidator() {
  const { schemas } = loadSchemas();
  const ajv = new Ajv({ strict: false, allErrors: true });
  const compiled = new Map();
  const validatorFor = type => {
    if (!schemas[type]) return null;
    if (!compiled.has(type)) compiled.set(type, ajv.compile(schemas[type]));
    return compiled.get(type);
  };
  return message => {
    let type;
    if (message.type === 'event') type = `${capitalized(message.event)}Event`;
    else if (message.type === 'response') type = message.success ? `${capitalized(message.command)}Response` : 'ErrorResponse';
    else return `not an event or a response: ${JSON.stringify(message).slice(0, 200)}`;
    const validate = validatorFor(type);
    if (!validate) return `no DAP type ${type} for ${JSON.stringify(message).slice(0, 200)}`;
    if (validate(message)) return null;
    return `${type} invalid: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(message).slice(0, 400)}`;
  };
}
