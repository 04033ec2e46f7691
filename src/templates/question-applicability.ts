/*
 * Which questions of a questionnaire are asked, given the answers so far. One function for the
 * service (src/documents/creating/template-answers.ts, which drops answers to questions not asked)
 * and for the fill page (src/people/web/fill), which shows and hides questions with it: the page
 * asks exactly what the service will check. Free of server code.
 */

/** What deciding whether a question is asked reads of it. */
export interface ConditionalQuestion {
  name: string;
  type: string;
  prereq?: readonly { k: string; v: string }[] | undefined;
  prereqOptionals?: readonly string[] | undefined;
}

/**
 * Which questions apply once the current values are known: `prereq` needs every `{k, v}` to match
 * (AND); a non-empty `prereqOptionals` instead needs any listed `{q}_{v}` to match (OR). Only an
 * applicable `clausula` can be a source, so a chain breaks where a source does not apply.
 */
export function applicability(config: readonly ConditionalQuestion[], current: ReadonlyMap<string, string>): (question: ConditionalQuestion) => boolean {
  const byName = new Map<string, ConditionalQuestion>();
  for (const question of config) if (!byName.has(question.name)) byName.set(question.name, question);
  const clausulas = [...byName.values()].filter((question) => question.type === 'clausula');
  const known = new Map<string, boolean>();
  const visiting = new Set<string>();

  const chosen = (source: ConditionalQuestion | undefined, value: string): boolean =>
    source !== undefined && source.type === 'clausula' && current.get(source.name) === value && applies(source);

  function applies(question: ConditionalQuestion): boolean {
    const cached = known.get(question.name);
    if (cached !== undefined) return cached;
    // A question that depends on itself, directly or through others, is never asked.
    if (visiting.has(question.name)) return false;
    visiting.add(question.name);
    const optionals = question.prereqOptionals ?? [];
    const prereq = question.prereq ?? [];
    let result: boolean;
    if (optionals.length > 0) {
      const wanted = new Set(optionals);
      result = clausulas.some((source) => {
        const value = current.get(source.name);
        return value !== undefined && wanted.has(`${source.name}_${value}`) && chosen(source, value);
      });
    } else {
      result = prereq.every((condition) => chosen(byName.get(condition.k), condition.v));
    }
    visiting.delete(question.name);
    known.set(question.name, result);
    return result;
  }

  return applies;
}
