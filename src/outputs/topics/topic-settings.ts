// Gap topic settings (README: configuration; docs/topics.md).
export interface TopicSettings {
  /** The period whose unanswered questions are grouped, ms before now (--topic-period, config topicPeriod; 90 days). */
  periodMs: number;
  /** Cap on the distinct questions grouped per project, the most asked (config topicMaxQuestions; 200,000). */
  maxQuestions: number;
}

export const DEFAULT_TOPIC_SETTINGS: TopicSettings = { periodMs: 90 * 86_400_000, maxQuestions: 200_000 };
