import { readFileSync } from 'node:fs';
import Mustache from 'mustache';

const read = (name: string): string => readFileSync(new URL(`./templates/${name}.html`, import.meta.url), 'utf8');

/** The money pages' templates, parsed once; each page renders into the shell's layout. */
const templates = {
  home: read('money-home'),
  payments: read('payments'),
  payment: read('payment'),
  confirm: read('confirm'),
  balance: read('balance'),
  audit: read('audit'),
};
const partials = { homeLive: read('home-live'), paymentRows: read('payment-rows'), pager: read('pager') };
for (const text of [...Object.values(templates), ...Object.values(partials)]) Mustache.parse(text);

export type MoneyTemplate = keyof typeof templates | 'homeLive' | 'paymentRows';

export function renderMoney(name: MoneyTemplate, view: object): string {
  const text = name in templates ? templates[name as keyof typeof templates] : partials[name as keyof typeof partials];
  return Mustache.render(text, view, partials);
}
