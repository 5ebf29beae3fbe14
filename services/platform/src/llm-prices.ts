/**
 * List prices of the chat models the service knows, in micro-USD per million tokens (USD list price ×
 * 1,000,000). Used when LEADFINDER_PRICE_LLM_*_USD_PER_MTOK are unset; any other model needs them set
 * (0 for a free local model), so a run is never billed at another model's price.
 */
export interface LlmListPrice {
  inputMicrousdPerMtok: number;
  outputMicrousdPerMtok: number;
}

const usdPerMtok = (input: number, output: number): LlmListPrice => ({
  inputMicrousdPerMtok: Math.round(input * 1_000_000),
  outputMicrousdPerMtok: Math.round(output * 1_000_000),
});

/** OpenAI list prices (standard tier), USD per million input / output tokens. */
export const LLM_LIST_PRICES: Readonly<Record<string, LlmListPrice>> = {
  'gpt-4o-mini': usdPerMtok(0.15, 0.6),
  'gpt-4o': usdPerMtok(2.5, 10),
  'gpt-4.1': usdPerMtok(2, 8),
  'gpt-4.1-mini': usdPerMtok(0.4, 1.6),
  'gpt-4.1-nano': usdPerMtok(0.1, 0.4),
  'o3-mini': usdPerMtok(1.1, 4.4),
  'o4-mini': usdPerMtok(1.1, 4.4),
  'gpt-3.5-turbo': usdPerMtok(0.5, 1.5),
};

/** The list price of a model by name; a dated snapshot ("gpt-4o-mini-2024-07-18") counts as its model. */
export function llmListPrice(model: string): LlmListPrice | undefined {
  const name = model.trim().toLowerCase();
  return LLM_LIST_PRICES[name] ?? LLM_LIST_PRICES[name.replace(/-\d{4}-\d{2}-\d{2}$/, '')];
}
