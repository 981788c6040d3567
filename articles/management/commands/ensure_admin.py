"""Create the development admin account once and print its login (refuses to run with DEBUG off)."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Create a development superuser (admin / admin-dev-password) if it does not exist yet."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="admin")
        parser.add_argument("--password", default="admin-dev-password")

    def handle(self, *args, username, password, **options):
        if not settings.DEBUG:
            raise CommandError("ensure_admin is for development only (DEBUG is off).")
        User = get_user_model()
        if not User.objects.filter(username=username).exists():
            User.objects.create_superuser(username=username, email=f"{username}@example.com", password=password)
            self.stdout.write(f"Created admin account '{username}'.")
            self.stdout.write(f"Admin login: http://127.0.0.1:8000/admin/  user: {username}  password: {password}")
        elif User.objects.get(username=username).check_password(password):
            self.stdout.write(f"Admin login: http://127.0.0.1:8000/admin/  user: {username}  password: {password}")
        else:
            self.stdout.write(f"Admin login: http://127.0.0.1:8000/admin/  user: {username} (password changed since setup)")
