import fs from 'node:fs';
import { TABLE_END, TABLE_START, withErrorTable } from '../src/http/error-table.js';

const readme = fs.readFileSync('docs/api.md', 'utf8');
const written = withErrorTable(readme);
if (written === undefined) {
  process.stderr.write(`docs/api.md needs the markers ${TABLE_START} and ${TABLE_END}\n`);
  process.exit(1);
}
fs.writeFileSync('docs/api.md', written);
