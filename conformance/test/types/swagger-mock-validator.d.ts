// The package ships no type declarations; this covers the programmatic API the suite uses.
declare module '@pactflow/swagger-mock-validator' {
  export interface ValidationResultItem {
    code: string;
    message: string;
    type: 'error' | 'warning';
    mockDetails?: { interactionDescription?: string | null; interactionState?: string | null; location: string; value?: unknown };
    specDetails?: { location: string; pathMethod?: string | null; pathName?: string | null; value?: unknown };
  }
  export interface ValidationOutcome {
    success: boolean;
    failureReason?: string;
    errors: ValidationResultItem[];
    warnings: ValidationResultItem[];
  }
  export interface ValidateOptions {
    specPathOrUrl: string;
    mockPathOrUrl: string;
    /** 'true': honour the spec's additionalProperties in responses (default: forbid extras everywhere). */
    additionalPropertiesInResponse?: 'true' | 'false';
    /** 'true': a response in the mock must hold every property the spec requires. */
    requiredPropertiesInResponse?: 'true' | 'false';
  }
  export const SwaggerMockValidatorFactory: { create(auth?: string): { validate(options: ValidateOptions): Promise<ValidationOutcome> } };
}
