import { reportTimeline, SEX_OBSERVATION_CODE, sexOf } from '../../../functions/report/timeline';

const event = (id: string, age: number, sex?: string) => ({
  health_event_id: id,
  event_age: age,
  predictors: [
    { id: `${id}-g`, observation_code: '2345-7', value: '100', unit: 'mg/dL' },
    ...(sex ? [{ id: `${id}-s`, observation_code: SEX_OBSERVATION_CODE, value: sex, unit: '' }] : []),
  ],
});

describe('report timeline', () => {
  it('orders events by age and scores each distinct age once, with no dates', () => {
    const timeline = reportTimeline([event('b', 52.25), event('a', 48), event('c', 52.25)], 'female');
    expect(timeline.events.map((e) => e.eventId)).toEqual(['a', 'b', 'c']);
    expect(timeline.events.every((e) => e.date === null)).toBe(true);
    expect(timeline.points).toEqual([
      { age: 48, date: null },
      { age: 52.25, date: null },
    ]);
  });

  it('takes sex from LOINC 76689-9 of the latest event that states it', () => {
    expect(sexOf([event('a', 40, 'Male'), event('b', 45)])).toBe('male');
    expect(sexOf([event('a', 40, 'male'), event('b', 45, 'female')])).toBe('female');
    expect(sexOf([event('a', 40)])).toBeUndefined();
  });
});
