/**
 * The README's state diagram of orders is the transition table (src/domain/order-machine.ts) drawn: this
 * test builds the Mermaid block from TRANSITIONS and FINAL_PHASES and finds it, exactly, in README.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FINAL_PHASES, PHASES, TRANSITIONS, phaseOf, type Phase, type Transition } from '../../src/domain/order-machine.js';

const ALL_TYPES = 3;

/** The phase a transition leads to: a review that starts leads into review, whatever status it reads. */
const toPhase = (t: Transition): Phase => phaseOf(t.to, t.review === 'start');

function edgeLabel(t: Transition): string {
  const who = t.types.length === ALL_TYPES ? '' : ` (${t.types.join(', ')})`;
  const money = t.refund ? ', refund' : '';
  const hooks = t.events.length ? t.events.join(' + ') : 'no webhook';
  const reads = t.review === 'start' ? `, reads ${t.to}` : '';
  return `${t.on}${who}${reads}${money} → ${hooks}`;
}

export function orderStateDiagram(): string {
  const lines = ['stateDiagram-v2', '    [*] --> processing: POST /orders accepted, debit → no webhook'];
  for (const t of TRANSITIONS) lines.push(`    ${t.from} --> ${toPhase(t)}: ${edgeLabel(t)}`);
  for (const p of PHASES) if (FINAL_PHASES.has(p)) lines.push(`    ${p} --> [*]`);
  return lines.join('\n');
}

describe('README.md state diagram of orders', () => {
  it('is the transition table, every edge with its webhooks', () => {
    const readme = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'README.md'), 'utf8');
    const m = /```mermaid\n([\s\S]*?)\n```/.exec(readme);
    expect(m, 'README.md has a ```mermaid block').not.toBeNull();
    expect(m![1]).toBe(orderStateDiagram());
  });

  it('draws every transition once and ends only in the final phases', () => {
    const d = orderStateDiagram();
    expect(d.split('\n').filter((l) => l.includes(' --> ') && !l.includes('[*]'))).toHaveLength(TRANSITIONS.length);
    expect(d).toContain('completed --> [*]');
    expect(d).not.toContain('review --> [*]');
    expect(d).not.toContain('processing --> [*]');
  });
});
