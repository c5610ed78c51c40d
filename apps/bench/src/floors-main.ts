/**
 * `npm run bench:floors`: prints what a multi of 10 setData costs our client at least, part by part
 * (floors.ts), with the CPU it ran on.
 */
import { cpus } from 'node:os';
import { floorGroups, measureFloors } from './floors.js';

function main(): void {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  process.stdout.write(`client floors on ${cpu} (${cpus().length} cores), Node ${process.version}\n`);
  let group = '';
  for (const figure of measureFloors(floorGroups())) {
    if (figure.group !== group) {
      group = figure.group;
      process.stdout.write(`\n${group}\n`);
    }
    const ns = `${Math.round(figure.nsPerCall).toLocaleString('en-US')} ns`;
    process.stdout.write(`  ${figure.name.padEnd(48)}${ns.padStart(10)}   ${figure.ratio.toFixed(2)}×\n`);
  }
}

main();
