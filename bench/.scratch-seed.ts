import { createBenchDatabase } from './bench-database';
console.log(await createBenchDatabase());
