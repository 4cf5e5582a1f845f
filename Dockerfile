FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml ./
COPY requirements/base.txt requirements/
RUN pip install --no-cache-dir --require-hashes -r requirements/base.txt
COPY . .
RUN pip install --no-cache-dir --no-deps . \
    && DJANGO_SETTINGS_MODULE=project.settings.local python manage.py collectstatic --noinput
RUN useradd --system app && mkdir -p /app/media && chown app /app/media
USER app
EXPOSE 8000
CMD ["gunicorn", "project.wsgi", "--bind", "0.0.0.0:8000", "--workers", "2"]
